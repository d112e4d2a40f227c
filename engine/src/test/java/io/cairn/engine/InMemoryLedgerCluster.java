package io.cairn.engine;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbConfig;
import io.cairn.db.StateDigest;
import io.cairn.logstreams.InMemoryLogStream;
import io.cairn.logstreams.LogStreamConfig;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordBatch;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.scheduler.Cancellable;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import io.cairn.streamprocessor.StreamProcessorColumnFamily;
import io.cairn.streamprocessor.StreamProcessorMode;
import io.cairn.streamprocessor.StreamProcessorPhase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Several ledger partitions in one JVM on one {@link DeterministicScheduler}: each partition has an
 * {@link InMemoryLogStream}, a real RocksDB state, a leader {@link StreamProcessor} with a {@link
 * LedgerEngine} (credit retries on) and checkpoint records — {@link TestCheckpoints} unless {@link
 * Builder#checkpoints} registers others (the backup module's real ones); partitions talk through an
 * {@link InMemoryInterPartitionChannel}. Clients write commands straight to the owning partition's
 * log.
 *
 * <p>Faults: the channel's (delay, drop, duplicate, disconnect), commits that lag behind writes
 * ({@link Builder#commitInterval}), and {@link Partition#failOver()} — a leader change that loses
 * the uncommitted tail of the log and rebuilds the state from the committed log.
 *
 * <p>{@link LedgerInvariants} checks the conservation invariant over the cluster. Use from the
 * thread that drives the scheduler.
 */
public final class InMemoryLedgerCluster implements AutoCloseable {

  /** Registers a partition's checkpoint records over its state. */
  @FunctionalInterface
  public interface CheckpointsSetup {
    /**
     * Registers the processors and appliers of {@code CHECKPOINT} records of partition {@code
     * partitionId} over {@code db}; returns where the engine reads the checkpoint id it stamps on
     * inter-partition commands.
     */
    CheckpointIdSupplier register(
        int partitionId, CairnDb db, Clock clock, RecordProcessors.Builder builder);
  }

  /** The default: {@link TestCheckpoints}, the engine's stand-in for the real records. */
  public static final CheckpointsSetup TEST_CHECKPOINTS =
      (partitionId, db, clock, builder) -> {
        TestCheckpoints checkpoints = new TestCheckpoints(db);
        checkpoints.register(builder);
        return checkpoints;
      };

  private final Path directory;
  private final LedgerEngineConfig engineConfig;
  private final DbConfig dbConfig;
  private final LogStreamConfig logStreamConfig;
  private final List<ColumnFamilyDefinition> families;
  private final CheckpointsSetup checkpointsSetup;
  private final SimClock clock;
  private final DeterministicScheduler scheduler;
  private final InMemoryInterPartitionChannel channel;
  private final AccountPlacement placement;
  private final List<Partition> partitions = new ArrayList<>();
  private final Duration commitInterval;
  private Cancellable commitTicker;

  private InMemoryLedgerCluster(Builder builder) {
    directory = builder.directory;
    engineConfig = builder.engineConfig.toBuilder().partitionCount(builder.partitionCount).build();
    dbConfig = builder.dbConfig;
    logStreamConfig = builder.logStreamConfig;
    families = families(builder.checkpointFamilies);
    checkpointsSetup = builder.checkpointsSetup;
    commitInterval = builder.commitInterval;
    clock = new SimClock(builder.startMillis);
    scheduler = new DeterministicScheduler(clock);
    channel = new InMemoryInterPartitionChannel(scheduler, builder.seed);
    placement = new AccountPlacement(builder.partitionCount);
    for (int id = 1; id <= builder.partitionCount; id++) {
      partitions.add(new Partition(id));
    }
    partitions.forEach(Partition::start);
    if (commitInterval != null) {
      partitions.forEach(p -> p.log.holdCommits());
      scheduleCommits();
    }
    scheduler.runUntilIdle();
  }

  public static Builder builder() {
    return new Builder();
  }

  // ---- access -----------------------------------------------------------------------------------

  public List<Partition> partitions() {
    return partitions;
  }

  /** Partition {@code id} (1-based). */
  public Partition partition(int id) {
    return partitions.get(id - 1);
  }

  public AccountPlacement placement() {
    return placement;
  }

  public InMemoryInterPartitionChannel channel() {
    return channel;
  }

  public DeterministicScheduler scheduler() {
    return scheduler;
  }

  public SimClock clock() {
    return clock;
  }

  /** The partition owning {@code accountId}. */
  public Partition partitionOf(String accountId) {
    return partition(placement.partitionOf(accountId));
  }

  // ---- client commands (written to the owning partition; null if the log refused)
  // ----------------

  public WriteResult createAccount(String id) {
    return partitionOf(id).write(AccountIntent.CREATE, new AccountValue(id, 0));
  }

  public WriteResult deposit(String id, long amount) {
    return partitionOf(id).write(DepositIntent.DEPOSIT, new DepositValue(id, amount));
  }

  public WriteResult transfer(String from, String to, long amount) {
    return partitionOf(from)
        .write(
            TransferIntent.CREATE,
            new TransferValue(
                from,
                to,
                amount,
                ValueDescriptor.NO_PARTITION_ID,
                ValueDescriptor.NO_PARTITION_ID));
  }

  /** Writes {@code CHECKPOINT CREATE(id)} to every partition, as the gateway does for a backup. */
  public void checkpoint(long id) {
    partitions.forEach(p -> checkpoint(p.id(), id));
  }

  /** Writes {@code CHECKPOINT CREATE(id)} to partition {@code partitionId} only. */
  public void checkpoint(int partitionId, long id) {
    partition(partitionId)
        .write(
            CheckpointIntent.CREATE,
            new CheckpointValue(id, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP));
  }

  // ---- driving ----------------------------------------------------------------------------------

  public void runUntilIdle() {
    scheduler.runUntilIdle();
  }

  public void run(Duration duration) {
    scheduler.runFor(duration);
  }

  /** Commits every log now (with lagging commits). */
  public void commitAll() {
    partitions.forEach(p -> p.log.commitAll());
  }

  @Override
  public void close() {
    if (commitTicker != null) {
      commitTicker.cancel();
    }
    partitions.forEach(Partition::stop);
    scheduler.close();
    scheduler.runUntilIdle();
    partitions.forEach(Partition::closeState);
  }

  private void scheduleCommits() {
    commitTicker =
        scheduler.schedule(
            commitInterval,
            () -> {
              commitAll();
              scheduleCommits();
            });
  }

  static void deleteRecursively(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The families of a partition's state with {@link TestCheckpoints}. */
  static List<ColumnFamilyDefinition> families() {
    return families(TestCheckpoints.FAMILIES);
  }

  private static List<ColumnFamilyDefinition> families(
      List<ColumnFamilyDefinition> checkpointFamilies) {
    List<ColumnFamilyDefinition> families = new ArrayList<>(LedgerColumnFamily.all());
    families.addAll(checkpointFamilies);
    families.addAll(StreamProcessorColumnFamily.all());
    return families;
  }

  /** One partition: its log, its leader's state and processor. */
  public final class Partition {
    private final int id;
    private final InMemoryLogStream log;
    private final Path stateDirectory;
    private int generation;
    private CairnDb db;
    private LedgerEngine engine;
    private StreamProcessor processor;
    private Cancellable retries;

    private Partition(int id) {
      this.id = id;
      this.log = new InMemoryLogStream(id, clock, logStreamConfig);
      this.stateDirectory = directory.resolve("partition-" + id);
    }

    public int id() {
      return id;
    }

    public InMemoryLogStream log() {
      return log;
    }

    public StreamProcessor processor() {
      return processor;
    }

    /** The current leader's ledger state (read it between scheduler tasks). */
    public LedgerState state() {
      return engine.state();
    }

    public CairnDb db() {
      return db;
    }

    public StateDigest stateDigest() {
      return db.isDigestMaintained() ? db.stateDigest() : db.recomputeDigest();
    }

    /** Writes a client command; returns the log's answer. */
    public WriteResult write(Intent intent, RecordValue value) {
      return log.writer()
          .tryWrite(new Record(RecordMetadata.builder().command(intent).build(), value));
    }

    /**
     * A leader change: the leader stops, the uncommitted tail of the log is lost, and a new leader
     * rebuilds the state from the committed log (a fresh state plus replay) and takes over.
     */
    public void failOver() {
      stop();
      log.dropUncommitted();
      closeState();
      deleteRecursively(stateDirectory);
      start();
      scheduler.runUntilIdle();
    }

    /**
     * Replays the committed log into a fresh state in {@code replayDirectory} as a follower and
     * returns its digest.
     */
    public StateDigest replayDigest(Path replayDirectory) {
      CairnDb replica =
          CairnDb.open(replayDirectory, dbConfig, families, new SimpleMeterRegistry());
      try {
        StreamProcessor follower =
            StreamProcessor.builder()
                .logStream(log)
                .db(replica)
                .processors(registrations(replica, InterPartitionSender.NONE).build())
                .mode(StreamProcessorMode.FOLLOWER)
                .meterRegistry(new SimpleMeterRegistry())
                .build();
        scheduler.start(follower);
        scheduler.runUntilIdle();
        follower.closeAsync();
        scheduler.runUntilIdle();
        return replica.isDigestMaintained() ? replica.stateDigest() : replica.recomputeDigest();
      } finally {
        replica.close();
      }
    }

    /** Every record written and not lost, committed or not, in position order. */
    public List<Record> writtenRecords() {
      List<Record> records = new ArrayList<>();
      for (RecordBatch batch : log.writtenBatches()) {
        records.addAll(batch.records());
      }
      return records;
    }

    private void start() {
      generation++;
      db = CairnDb.open(stateDirectory, dbConfig, families, new SimpleMeterRegistry());
      RecordProcessors.Builder builder = registrations(db, channel.sender(id));
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

    private RecordProcessors.Builder registrations(CairnDb state, InterPartitionSender sender) {
      RecordProcessors.Builder builder = RecordProcessors.builder();
      CheckpointIdSupplier checkpoints = checkpointsSetup.register(id, state, clock, builder);
      LedgerEngine ledger =
          LedgerEngine.builder()
              .partitionId(id)
              .db(state)
              .config(engineConfig)
              .sender(sender)
              .checkpointIds(checkpoints)
              .clock(clock)
              .meterRegistry(new SimpleMeterRegistry())
              .build();
      if (state == db) {
        engine = ledger;
      }
      return ledger.register(builder);
    }

    private void stop() {
      channel.unregister(id);
      if (retries != null) {
        retries.cancel();
      }
      if (processor != null) {
        processor.closeAsync();
        scheduler.runUntilIdle();
        processor = null;
      }
    }

    private void closeState() {
      stop();
      if (db != null) {
        db.close();
        db = null;
      }
    }

    /** True if the leader processes (not failed). */
    public boolean isProcessing() {
      return processor != null && processor.phase() == StreamProcessorPhase.PROCESSING;
    }

    public int generation() {
      return generation;
    }
  }

  /** The cluster's settings. */
  public static final class Builder {
    private Path directory;
    private int partitionCount = 3;
    private long seed = 1;
    private long startMillis = 1_000_000;
    private LedgerEngineConfig engineConfig =
        LedgerEngineConfig.builder()
            .partitionCount(1)
            .creditRetryInterval(Duration.ofMillis(200))
            .creditRetryIntervalMax(Duration.ofSeconds(2))
            .creditRetryCheckInterval(Duration.ofMillis(20))
            .build();
    private DbConfig dbConfig = DbConfig.defaults();
    private LogStreamConfig logStreamConfig = LogStreamConfig.defaults();
    private Duration commitInterval;
    private List<ColumnFamilyDefinition> checkpointFamilies = TestCheckpoints.FAMILIES;
    private CheckpointsSetup checkpointsSetup = TEST_CHECKPOINTS;

    private Builder() {}

    /**
     * The checkpoint records of every partition instead of {@link TestCheckpoints}: {@code setup}
     * registers them, over a state opened with {@code families} besides the ledger's.
     */
    public Builder checkpoints(
        List<? extends ColumnFamilyDefinition> families, CheckpointsSetup setup) {
      checkpointFamilies = List.copyOf(families);
      checkpointsSetup = Objects.requireNonNull(setup, "setup");
      return this;
    }

    /** Where the partitions' states live (a test's temporary directory). Required. */
    public Builder directory(Path value) {
      directory = value;
      return this;
    }

    public Builder partitionCount(int value) {
      partitionCount = value;
      return this;
    }

    /** Seeds the channel's faults. */
    public Builder seed(long value) {
      seed = value;
      return this;
    }

    /** The engine's settings; the partition count is the cluster's. */
    public Builder engineConfig(LedgerEngineConfig value) {
      engineConfig = value;
      return this;
    }

    public Builder dbConfig(DbConfig value) {
      dbConfig = value;
      return this;
    }

    public Builder logStreamConfig(LogStreamConfig value) {
      logStreamConfig = value;
      return this;
    }

    /** Commits lag: logs commit everything written every {@code value}; null commits at once. */
    public Builder commitInterval(Duration value) {
      commitInterval = value;
      return this;
    }

    public InMemoryLedgerCluster build() {
      Objects.requireNonNull(directory, "directory");
      return new InMemoryLedgerCluster(this);
    }
  }
}
