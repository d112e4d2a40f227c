package io.cairn.backup.cut;

import io.cairn.backup.BackupColumnFamily;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.CheckpointListener;
import io.cairn.backup.CheckpointRecords;
import io.cairn.backup.CheckpointState;
import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbConfig;
import io.cairn.engine.CheckpointIdSupplier;
import io.cairn.engine.InMemoryInterPartitionChannel;
import io.cairn.engine.InterPartitionReceiver;
import io.cairn.engine.LedgerColumnFamily;
import io.cairn.engine.LedgerEngine;
import io.cairn.engine.LedgerEngineConfig;
import io.cairn.engine.LedgerState;
import io.cairn.logstreams.InMemoryLogStream;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.scheduler.Cancellable;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import io.cairn.streamprocessor.StreamProcessorColumnFamily;
import io.cairn.streamprocessor.StreamProcessorMode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Ledger partitions with the real checkpoint records, on one {@link DeterministicScheduler}: each
 * has an {@link InMemoryLogStream}, a RocksDB state, a leader stream processor with the {@link
 * LedgerEngine} and {@link CheckpointRecords}; they exchange credits through the engine's {@link
 * InMemoryInterPartitionChannel} (delays, drops, duplicates from a seed).
 *
 * <p>{@code stamping} is the test-only switch: on, the engine stamps inter-partition commands with
 * the partition's checkpoint id ({@link CheckpointState#latestCheckpointId()}); off, it stamps
 * nothing ({@link CheckpointIdSupplier#NONE}), so the cut interceptor never fires.
 *
 * <p>The engine's own cluster harness ({@code InMemoryLedgerCluster}) registers a stand-in for the
 * checkpoint records and has no hook for the real ones yet; this one mirrors it.
 */
final class CutCluster implements AutoCloseable {

  private final SimClock clock = new SimClock(1_000_000);
  private final DeterministicScheduler scheduler = new DeterministicScheduler(clock);
  private final InMemoryInterPartitionChannel channel;
  private final AccountPlacement placement;
  private final List<Partition> partitions = new ArrayList<>();

  CutCluster(
      final Path directory, final int partitionCount, final long seed, final boolean stamping) {
    channel = new InMemoryInterPartitionChannel(scheduler, seed);
    placement = new AccountPlacement(partitionCount);
    final LedgerEngineConfig config =
        LedgerEngineConfig.builder()
            .partitionCount(partitionCount)
            .creditRetryInterval(Duration.ofMillis(50))
            .creditRetryIntervalMax(Duration.ofMillis(500))
            .creditRetryCheckInterval(Duration.ofMillis(20))
            .build();
    for (int id = 1; id <= partitionCount; id++) {
      partitions.add(new Partition(id, directory.resolve("partition-" + id), config, stamping));
    }
    scheduler.runUntilIdle();
  }

  InMemoryInterPartitionChannel channel() {
    return channel;
  }

  AccountPlacement placement() {
    return placement;
  }

  List<Partition> partitions() {
    return partitions;
  }

  Partition partition(final int id) {
    return partitions.get(id - 1);
  }

  void createAccount(final String id) {
    partition(placement.partitionOf(id)).write(AccountIntent.CREATE, new AccountValue(id, 0));
  }

  void deposit(final String id, final long amount) {
    partition(placement.partitionOf(id)).write(DepositIntent.DEPOSIT, new DepositValue(id, amount));
  }

  void transfer(final String from, final String to, final long amount) {
    partition(placement.partitionOf(from))
        .write(
            TransferIntent.CREATE,
            new TransferValue(
                from,
                to,
                amount,
                ValueDescriptor.NO_PARTITION_ID,
                ValueDescriptor.NO_PARTITION_ID));
  }

  /** {@code CHECKPOINT CREATE(id)} on one partition, as a client (the gateway) writes it. */
  void checkpoint(final int partitionId, final long id) {
    partition(partitionId)
        .write(
            CheckpointIntent.CREATE,
            new CheckpointValue(id, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP));
  }

  void run(final Duration duration) {
    scheduler.runFor(duration);
  }

  void runUntilIdle() {
    scheduler.runUntilIdle();
  }

  /** Every committed record of every partition, by partition (index 0 = partition 1). */
  List<List<Record>> logs() {
    return partitions.stream().map(p -> p.log.committedRecords()).toList();
  }

  @Override
  public void close() {
    partitions.forEach(Partition::stop);
    scheduler.close();
    scheduler.runUntilIdle();
    partitions.forEach(p -> p.db.close());
  }

  /** One partition and its leader. */
  final class Partition {
    private final int id;
    private final InMemoryLogStream log;
    private final CairnDb db;
    private final LedgerEngine engine;
    private final CheckpointState checkpoints;
    private final StreamProcessor processor;
    private final Cancellable retries;

    private Partition(
        final int id,
        final Path directory,
        final LedgerEngineConfig config,
        final boolean stamping) {
      this.id = id;
      log = new InMemoryLogStream(id, clock);
      final List<ColumnFamilyDefinition> families = new ArrayList<>(LedgerColumnFamily.all());
      families.addAll(BackupColumnFamily.all());
      families.addAll(StreamProcessorColumnFamily.all());
      db = CairnDb.open(directory, DbConfig.defaults(), families, new SimpleMeterRegistry());
      final RecordProcessors.Builder builder = RecordProcessors.builder();
      checkpoints =
          CheckpointRecords.register(
              id,
              db,
              builder,
              CheckpointListener.NONE,
              new BackupMetrics(new SimpleMeterRegistry(), id, clock));
      final CheckpointIdSupplier stamp =
          stamping ? checkpoints::latestCheckpointId : CheckpointIdSupplier.NONE;
      engine =
          LedgerEngine.builder()
              .partitionId(id)
              .db(db)
              .config(config)
              .sender(channel.sender(id))
              .checkpointIds(stamp)
              .clock(clock)
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      engine.register(builder);
      processor =
          StreamProcessor.builder()
              .logStream(log)
              .db(db)
              .processors(builder.build())
              .mode(StreamProcessorMode.LEADER)
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      scheduler.start(processor);
      retries = engine.startCreditRetries(processor, log);
      channel.register(new InterPartitionReceiver(id, log.writer()));
    }

    int id() {
      return id;
    }

    LedgerState state() {
      return engine.state();
    }

    CheckpointState checkpoints() {
      return checkpoints;
    }

    StreamProcessor processor() {
      return processor;
    }

    WriteResult write(final Intent intent, final RecordValue value) {
      return log.writer()
          .tryWrite(new Record(RecordMetadata.builder().command(intent).build(), value));
    }

    private void stop() {
      channel.unregister(id);
      retries.cancel();
      processor.closeAsync();
      scheduler.runUntilIdle();
    }
  }
}
