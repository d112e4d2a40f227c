package io.cairn.benchmarks;

import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.broker.Broker;
import io.cairn.broker.BrokerTestCluster;
import io.cairn.broker.partition.Partition;
import io.cairn.journal.JournalSegmentFile;
import io.cairn.logstreams.LogStreamWriter;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.scheduler.Clock;
import io.cairn.snapshot.PersistedSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Builds one real backup of a real broker for {@link RestoreBenchmark}: a single {@link Broker}
 * (node 0, {@code partitions} partitions, replication factor 1, default 128 MiB preallocated
 * segments, the filesystem store without compression) under ledger load written straight to its
 * partitions' logs and processed by its ledger engine:
 *
 * <ol>
 *   <li><b>State.</b> {@code ACCOUNT CREATE} of accounts with {@code accountIdBytes}-byte ids
 *       (random letters and digits after a counter, so RocksDB's block compression finds little)
 *       until each partition's snapshot holds about {@code stateShare} of its share of the bytes;
 *       snapshots taken on the way let the broker compact the log of those commands.
 *   <li><b>Log.</b> Deposits into {@code fundedAccounts} accounts per partition, then {@code
 *       TRANSFER CREATE} between them ({@code crossPercent}% to another partition: credit, apply,
 *       acknowledge) until the segments a backup takes (those holding entries from the snapshot's
 *       index on: the last segment of the account commands, then the transfers) hold the rest.
 *   <li><b>Cut.</b> {@code CHECKPOINT CREATE(1)} on every partition with more transfers behind it
 *       (records after the cut, which a restore drops), then the broker's backup 1 COMPLETED on
 *       every partition.
 * </ol>
 *
 * The processed state of every partition is real: balances, applied credits, checkpoint, and the
 * state digest the backup records. The store is kept under {@code <directory>/store} with {@code
 * backup.properties} beside it; a later run with the same settings reuses it.
 */
final class LedgerBackupBuilder {

  static final long BACKUP_ID = 1;

  /** Changes when the builder makes a different backup from the same settings. */
  private static final String BUILDER_VERSION = "2";

  private static final Clock CLOCK = Clock.system();
  private static final int COMMANDS_PER_BATCH = 64;
  private static final int BATCHES_PER_CHUNK = 16;
  private static final int CHUNKS_IN_FLIGHT = 2;

  /** Transfers at least this many chunks per partition, however small the target. */
  private static final int MIN_TRANSFER_CHUNKS = 4;

  private static final String ID_CHARS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

  /**
   * A backup ready to restore.
   *
   * @param store the filesystem store's base path, holding only this backup
   * @param backupId the backup (checkpoint) id
   * @param partitions the partition count
   * @param digests the state digest each partition's descriptor records, by partition
   * @param bytes the stored bytes of every partition's files
   * @param files the stored files
   * @param description how it was made, for the output
   */
  record Built(
      Path store,
      long backupId,
      int partitions,
      Map<Integer, String> digests,
      long bytes,
      int files,
      String description) {}

  private final Path directory;
  private final int partitions;
  private final long totalBytes;
  private final double stateShare;
  private final int accountIdBytes;
  private final int fundedAccounts;
  private final int crossPercent;
  private final SplittableRandom random;
  private final AccountPlacement placement;
  private final long[] writtenUpTo;

  /** Per partition: the raft index of its latest snapshot, which the backup will use. */
  private final long[] snapshotIndex;

  private final List<List<String>> funded = new ArrayList<>();

  /** Per partition: the last position of each of the last chunks written, oldest first. */
  private final List<long[]> chunkEnds = new ArrayList<>();

  private long nextAccount;

  LedgerBackupBuilder(
      Path directory,
      int partitions,
      long totalBytes,
      double stateShare,
      int accountIdBytes,
      int fundedAccounts,
      int crossPercent,
      long seed) {
    this.directory = directory;
    this.partitions = partitions;
    this.totalBytes = totalBytes;
    this.stateShare = stateShare;
    this.accountIdBytes = accountIdBytes;
    this.fundedAccounts = fundedAccounts;
    this.crossPercent = crossPercent;
    this.random = new SplittableRandom(seed);
    this.placement = new AccountPlacement(partitions);
    this.writtenUpTo = new long[partitions + 1];
    this.snapshotIndex = new long[partitions + 1];
    for (int p = 0; p <= partitions; p++) {
      funded.add(new ArrayList<>());
    }
  }

  /** The settings that identify a built backup; a stored one is reused only if they match. */
  private Properties settings() {
    Properties settings = new Properties();
    settings.setProperty("builderVersion", BUILDER_VERSION);
    settings.setProperty("partitions", Integer.toString(partitions));
    settings.setProperty("totalBytes", Long.toString(totalBytes));
    settings.setProperty("stateShare", Double.toString(stateShare));
    settings.setProperty("accountIdBytes", Integer.toString(accountIdBytes));
    settings.setProperty("fundedAccounts", Integer.toString(fundedAccounts));
    settings.setProperty("crossPercent", Integer.toString(crossPercent));
    return settings;
  }

  /**
   * Reuses the backup under {@code directory} if it was built with the same settings; else builds.
   */
  Built reuseOrBuild(ExecutorService storeExecutor) throws IOException {
    Path description = directory.resolve("backup.properties");
    if (Files.isRegularFile(description)) {
      Properties stored = new Properties();
      try (Reader reader = Files.newBufferedReader(description, StandardCharsets.UTF_8)) {
        stored.load(reader);
      }
      Properties wanted = settings();
      if (wanted.entrySet().stream()
          .allMatch(e -> e.getValue().equals(stored.getProperty((String) e.getKey())))) {
        Built built = describe(storeExecutor, stored.getProperty("made", "(not recorded)"));
        System.out.println(
            "reusing the backup in " + built.store() + " (" + built.description() + ")");
        return built;
      }
      System.out.println(
          "the backup in " + directory + " was built with other settings; rebuilding");
    }
    BenchmarkFiles.deleteRecursively(directory);
    Files.createDirectories(directory);
    String made = build(storeExecutor);
    Properties written = settings();
    written.setProperty("made", made);
    try (Writer writer = Files.newBufferedWriter(description, StandardCharsets.UTF_8)) {
      written.store(writer, "RestoreBenchmark backup; delete the directory to rebuild");
    }
    return describe(storeExecutor, made);
  }

  /** Reads the stored backup's descriptors. */
  private Built describe(ExecutorService storeExecutor, String made) {
    Path storeDirectory = directory.resolve("store");
    try (FilesystemBackupStore store = openStore(storeDirectory, storeExecutor)) {
      Map<Integer, String> digests = new TreeMap<>();
      long bytes = 0;
      int files = 0;
      for (int p = 1; p <= partitions; p++) {
        BackupStatus status = store.getStatus(new BackupIdentifier(0, p, BACKUP_ID)).join();
        if (status.statusCode() != BackupStatusCode.COMPLETED) {
          throw new IllegalStateException(
              "Expected backup " + BACKUP_ID + " of partition " + p + " COMPLETED, but " + status);
        }
        BackupDescriptor descriptor = status.descriptor().orElseThrow();
        digests.put(p, descriptor.stateDigest());
        bytes += descriptor.sizeBytes();
        files += descriptor.fileCount();
      }
      return new Built(storeDirectory, BACKUP_ID, partitions, digests, bytes, files, made);
    }
  }

  static FilesystemBackupStore openStore(Path base, ExecutorService executor) {
    return FilesystemBackupStore.open(
        FilesystemBackupStoreConfig.of(base), CLOCK, executor, executor, new SimpleMeterRegistry());
  }

  // ---- building --------------------------------------------------------------------------------

  private String build(ExecutorService storeExecutor) throws IOException {
    Path storeDirectory = directory.resolve("store");
    Path source = directory.resolve("source");
    Files.createDirectories(storeDirectory);
    long start = CLOCK.nanos();
    long perPartition = totalBytes / partitions;
    long stateTarget = (long) (perPartition * stateShare);
    long logTarget = perPartition - stateTarget;
    String made;
    try (BrokerTestCluster cluster =
        BenchmarkBroker.start(source, Optional.of(storeDirectory), partitions)) {
      Broker broker = cluster.broker(0);
      BenchmarkBroker.await(
          "every partition led", () -> broker.health().ready() && BenchmarkBroker.allLead(broker));
      long accounts = createAccounts(broker, stateTarget);
      double stateSeconds = (CLOCK.nanos() - start) / 1e9;
      long logStart = CLOCK.nanos();
      long transfers = transferUntil(broker, logTarget);
      double logSeconds = (CLOCK.nanos() - logStart) / 1e9;
      checkpoint(broker);
      awaitCompleted(storeExecutor, storeDirectory);
      made =
          String.format(
              Locale.ROOT,
              "a real broker, %d partitions: %d accounts of %d-byte ids created and snapshotted"
                  + " (%.0f s); %d deposits and %d transfers (%d%% cross-partition, %.0f s);"
                  + " checkpoint %d on every partition with transfers behind it; built in %.0f s",
              partitions,
              accounts,
              accountIdBytes,
              stateSeconds,
              (long) fundedAccounts * partitions,
              transfers,
              crossPercent,
              logSeconds,
              BACKUP_ID,
              (CLOCK.nanos() - start) / 1e9);
    }
    BenchmarkFiles.deleteRecursively(source);
    System.out.println("built: " + made);
    return made;
  }

  /** Creates accounts until every partition's snapshot holds about {@code stateTarget} bytes. */
  private long createAccounts(Broker broker, long stateTarget) {
    long perPartition = 0;
    double bytesPerAccount = accountIdBytes + 40.0; // a first guess; measured below
    for (int attempt = 0; attempt < 8; attempt++) {
      long wanted = (long) Math.ceil(stateTarget / bytesPerAccount);
      if (wanted > perPartition) {
        long more = Math.max(wanted - perPartition, 1_000);
        writeAccounts(broker, more);
        perPartition += more;
      }
      long smallest = Long.MAX_VALUE;
      for (int p = 1; p <= partitions; p++) {
        PersistedSnapshot snapshot = takeSnapshot(broker, p);
        snapshotIndex[p] = snapshot.index();
        smallest = Math.min(smallest, snapshot.sizeBytes());
      }
      System.out.printf(
          Locale.ROOT,
          "  %d accounts per partition: smallest snapshot %,d bytes (target %,d)%n",
          perPartition,
          smallest,
          stateTarget);
      if (smallest >= stateTarget * 0.97) {
        break;
      }
      bytesPerAccount = Math.max(16.0, (double) smallest / perPartition);
    }
    return perPartition * partitions;
  }

  private void writeAccounts(Broker broker, long perPartition) {
    long[] created = new long[partitions + 1];
    while (true) {
      boolean done = true;
      for (int p = 1; p <= partitions; p++) {
        if (created[p] < perPartition) {
          done = false;
          int count =
              (int) Math.min(COMMANDS_PER_BATCH * BATCHES_PER_CHUNK, perPartition - created[p]);
          List<Record> commands = new ArrayList<>(count);
          for (int i = 0; i < count; i++) {
            String id = newAccount(p);
            if (funded.get(p).size() < fundedAccounts) {
              funded.get(p).add(id);
            }
            commands.add(command(AccountIntent.CREATE, new AccountValue(id, 0)));
          }
          writeChunk(broker, p, commands);
          created[p] += count;
        }
      }
      if (done) {
        return;
      }
    }
  }

  /**
   * Deposits into the funded accounts, then transfers until each partition's segments from its
   * snapshot's index on (those a backup takes) hold {@code logTarget} bytes.
   */
  private long transferUntil(Broker broker, long logTarget) {
    for (int p = 1; p <= partitions; p++) {
      List<Record> deposits = new ArrayList<>();
      for (String id : funded.get(p)) {
        deposits.add(command(DepositIntent.DEPOSIT, new DepositValue(id, 1_000_000_000_000L)));
      }
      writeChunk(broker, p, deposits);
    }
    long transfers = 0;
    for (int chunk = 0; ; chunk++) {
      boolean done = true;
      for (int p = 1; p <= partitions; p++) {
        if (chunk < MIN_TRANSFER_CHUNKS || logBytesAfterSnapshot(broker, p) < logTarget) {
          done = false;
          writeChunk(broker, p, transfers(p, COMMANDS_PER_BATCH * BATCHES_PER_CHUNK));
          transfers += COMMANDS_PER_BATCH * BATCHES_PER_CHUNK;
        }
      }
      if (done) {
        break;
      }
    }
    for (int p = 1; p <= partitions; p++) {
      awaitProcessed(broker, p, writtenUpTo[p]);
      System.out.printf(
          Locale.ROOT,
          "  partition %d: %,d bytes of segments from snapshot index %d on%n",
          p,
          logBytesAfterSnapshot(broker, p),
          snapshotIndex[p]);
    }
    return transfers;
  }

  private List<Record> transfers(int partitionId, int count) {
    List<String> from = funded.get(partitionId);
    List<Record> commands = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int target =
          partitions > 1 && random.nextInt(100) < crossPercent
              ? 1 + (partitionId + random.nextInt(partitions - 1)) % partitions
              : partitionId;
      List<String> to = funded.get(target);
      commands.add(
          command(
              TransferIntent.CREATE,
              new TransferValue(
                  from.get(random.nextInt(from.size())),
                  to.get(random.nextInt(to.size())),
                  1 + random.nextInt(100),
                  ValueDescriptor.NO_PARTITION_ID,
                  ValueDescriptor.NO_PARTITION_ID)));
    }
    return commands;
  }

  /** {@code CHECKPOINT CREATE} on every partition, more transfers behind it, CREATED everywhere. */
  private void checkpoint(Broker broker) {
    for (int p = 1; p <= partitions; p++) {
      write(
          broker,
          p,
          List.of(
              command(
                  CheckpointIntent.CREATE,
                  new CheckpointValue(
                      BACKUP_ID, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP))));
      write(broker, p, transfers(p, COMMANDS_PER_BATCH));
    }
    for (int p = 1; p <= partitions; p++) {
      int partitionId = p;
      BenchmarkBroker.await(
          "checkpoint " + BACKUP_ID + " on partition " + p,
          () ->
              BenchmarkBroker.latestCheckpoint(broker, partitionId)
                  .map(c -> c.id() >= BACKUP_ID)
                  .orElse(false));
      awaitProcessed(broker, p, writtenUpTo[p]);
    }
  }

  private void awaitCompleted(ExecutorService storeExecutor, Path storeDirectory) {
    try (FilesystemBackupStore store = openStore(storeDirectory, storeExecutor)) {
      for (int p = 1; p <= partitions; p++) {
        BackupIdentifier id = new BackupIdentifier(0, p, BACKUP_ID);
        BenchmarkBroker.await(
            "backup " + id + " COMPLETED",
            () -> {
              BackupStatus status = store.getStatus(id).join();
              if (status.statusCode() == BackupStatusCode.FAILED) {
                throw new IllegalStateException("Expected the backup to complete, but " + status);
              }
              return status.statusCode() == BackupStatusCode.COMPLETED;
            });
      }
    }
  }

  // ---- writing and waiting ----------------------------------------------------------------------

  /**
   * Writes {@code commands} to the partition's log in batches, after the partition processed all
   * but {@value #CHUNKS_IN_FLIGHT} chunks written before (a bounded backlog).
   */
  private void writeChunk(Broker broker, int partitionId, List<Record> commands) {
    while (chunkEnds.size() <= partitionId) {
      chunkEnds.add(new long[CHUNKS_IN_FLIGHT]);
    }
    long[] ends = chunkEnds.get(partitionId);
    awaitProcessed(broker, partitionId, ends[0]);
    for (int from = 0; from < commands.size(); from += COMMANDS_PER_BATCH) {
      write(
          broker,
          partitionId,
          commands.subList(from, Math.min(commands.size(), from + COMMANDS_PER_BATCH)));
    }
    System.arraycopy(ends, 1, ends, 0, CHUNKS_IN_FLIGHT - 1);
    ends[CHUNKS_IN_FLIGHT - 1] = writtenUpTo[partitionId];
  }

  private void write(Broker broker, int partitionId, List<Record> batch) {
    LogStreamWriter writer = BenchmarkBroker.partition(broker, partitionId).logStream().writer();
    long deadline = CLOCK.nanos() + BenchmarkBroker.TIMEOUT.toNanos();
    while (true) {
      WriteResult result = writer.tryWrite(batch);
      if (result instanceof WriteResult.Written written) {
        writtenUpTo[partitionId] = written.highestPosition();
        return;
      }
      if (!(result instanceof WriteResult.Backpressure) || CLOCK.nanos() > deadline) {
        throw new IllegalStateException(
            "Expected partition " + partitionId + " to take a batch, but " + result);
      }
      LockSupport.parkNanos(200_000);
    }
  }

  private void awaitProcessed(Broker broker, int partitionId, long position) {
    if (position <= 0) {
      return;
    }
    Partition partition = BenchmarkBroker.partition(broker, partitionId);
    BenchmarkBroker.await(
        "partition " + partitionId + " processed position " + position,
        () ->
            partition
                    .stateSummary()
                    .get(BenchmarkBroker.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .lastProcessedPosition()
                >= position);
  }

  private static PersistedSnapshot takeSnapshot(Broker broker, int partitionId) {
    try {
      return BenchmarkBroker.partition(broker, partitionId)
          .takeSnapshot()
          .get(BenchmarkBroker.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .orElseThrow(
              () -> new IllegalStateException("no snapshot taken on partition " + partitionId));
    } catch (Exception e) {
      throw new IllegalStateException(
          "Expected a snapshot of partition " + partitionId + ", but " + e, e);
    }
  }

  /** The committed bytes of the partition's segments that hold entries from its snapshot on. */
  private long logBytesAfterSnapshot(Broker broker, int partitionId) {
    long bytes = 0;
    for (JournalSegmentFile segment :
        BenchmarkBroker.partition(broker, partitionId).context().journal().segmentFiles()) {
      if (segment.lastIndex() >= snapshotIndex[partitionId]) {
        bytes += segment.committedLengthBytes();
      }
    }
    return bytes;
  }

  private String newAccount(int partitionId) {
    StringBuilder id = new StringBuilder(accountIdBytes);
    while (true) {
      id.setLength(0);
      id.append('a').append(nextAccount++).append('-');
      while (id.length() < accountIdBytes) {
        id.append(ID_CHARS.charAt(random.nextInt(ID_CHARS.length())));
      }
      String candidate = id.toString();
      if (placement.partitionOf(candidate) == partitionId) {
        return candidate;
      }
    }
  }

  private static Record command(
      io.cairn.protocol.Intent intent, io.cairn.protocol.RecordValue value) {
    return new Record(RecordMetadata.builder().command(intent).build(), value);
  }
}
