package io.cairn.backup.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cairn.backupapi.archive.ArchiveException;
import io.cairn.backupapi.archive.ArchiveObjects;
import io.cairn.backupapi.archive.ArchivedCheckpoint;
import io.cairn.backupapi.archive.ArchivedRecord;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.backupapi.archive.StoredLink;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.journal.SegmentedJournal;
import io.cairn.logstreams.LogBatchAssembler;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordBatch;
import io.cairn.protocol.RecordMetadata;
import io.cairn.raft.log.RaftEntry;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.raft.log.RaftEntryType;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.ThreadPoolActorScheduler;
import io.cairn.snapshot.SnapshotConfig;
import io.cairn.snapshot.SnapshotStore;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log archiver over real journals of raft entries, a real filesystem store and real snapshot
 * stores' compaction holds: only committed records are archived, restore points are recorded, a new
 * leader (and two racing ones) continue one chain, followers release what is archived, a leader
 * whose log starts past the archive's tail archives the records between from another member, and a
 * store that fails holds compaction only up to the limit, after which the archive reports and then
 * records its gap.
 */
class LogArchiverTest {

  private static final int PARTITION = 3;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final ArchiveConfig CONFIG =
      new ArchiveConfig(Duration.ofMillis(50), 8 * 1024, 64 * 1024, Duration.ofMillis(100));

  @TempDir Path root;

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ExecutorService storeExecutor = Executors.newFixedThreadPool(4);
  private final List<AutoCloseable> closing = new ArrayList<>();
  private ThreadPoolActorScheduler scheduler;
  private FilesystemBackupStore store;
  private final AtomicBoolean storeFails = new AtomicBoolean();

  @BeforeEach
  void setUp() throws Exception {
    java.nio.file.Files.createDirectories(root.resolve("store"));
    scheduler = new ThreadPoolActorScheduler("archive-test", 2, Clock.system(), registry);
    store =
        FilesystemBackupStore.open(
            FilesystemBackupStoreConfig.of(root.resolve("store")),
            Clock.system(),
            storeExecutor,
            storeExecutor,
            registry);
  }

  @AfterEach
  void tearDown() throws Exception {
    for (int i = closing.size() - 1; i >= 0; i--) {
      closing.get(i).close();
    }
    scheduler.close();
    store.close();
    storeExecutor.shutdownNow();
  }

  /** One member: its journal, snapshot store and archiver. */
  private final class Member {
    final SegmentedJournal journal;
    final SnapshotStore snapshots;
    final AtomicLong committed = new AtomicLong(-1);
    final io.cairn.snapshot.CompactionHold hold;
    final LogArchiver archiver;
    long nextPosition = 1;

    Member(int nodeId) throws Exception {
      this(nodeId, ArchivePeers.NONE);
    }

    Member(int nodeId, ArchivePeers peers) throws Exception {
      journal =
          SegmentedJournal.open(
              JournalConfig.builder()
                  .directory(root.resolve("node-" + nodeId).resolve("journal"))
                  .name("raft-partition-" + PARTITION)
                  .segmentSizeBytes(4 * 1024)
                  .indexDensity(4)
                  .build(),
              new SimpleMeterRegistry());
      snapshots =
          SnapshotStore.open(
              root.resolve("node-" + nodeId).resolve("snapshots"),
              SnapshotConfig.defaults(),
              Clock.system(),
              new SimpleMeterRegistry(),
              Tags.of("partition", Integer.toString(PARTITION)));
      hold = snapshots.registerCompactionHold("log-archive", journal.getFirstIndex());
      archiver =
          new LogArchiver(
              nodeId,
              PARTITION,
              new LogArchive(failing(store.archive()), PARTITION),
              journal,
              committed::get,
              hold,
              peers,
              CONFIG,
              new ArchiveMetrics(registry, PARTITION));
      closing.add(journal);
      closing.add(snapshots);
      closing.add(() -> archiver.closeAsync().get(30, TimeUnit.SECONDS));
      scheduler.start(archiver);
    }

    /** Appends {@code count} entries of three deposits each, every fifth with a checkpoint. */
    List<Long> append(int count, long term, List<ArchivedCheckpoint> checkpoints) {
      List<Long> positions = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        long low = nextPosition;
        List<Record> records = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
          records.add(
              new Record(
                  RecordMetadata.builder()
                      .command(io.cairn.protocol.DepositIntent.DEPOSIT)
                      .position(low + r)
                      .timestamp(1_000 + low)
                      .build(),
                  new DepositValue("account-" + (low % 7), 10 + r)));
        }
        if ((journal.getLastIndex() + 1) % 5 == 0) {
          long id = journal.getLastIndex() + 1;
          CheckpointValue created = new CheckpointValue(id, low, 1_000 + low, new byte[16]);
          records.set(
              2,
              new Record(
                  RecordMetadata.builder()
                      .event(CheckpointIntent.CREATED)
                      .position(low + 2)
                      .timestamp(1_000 + low)
                      .build(),
                  created));
          checkpoints.add(new ArchivedCheckpoint(id, low, 1_000 + low, "0".repeat(32), id));
        }
        var payload = LogBatchAssembler.encode(new RecordBatch(records));
        journal.append(
            low,
            RaftEntryCodec.encode(
                new RaftEntry(term, RaftEntryType.APPLICATION, low, low + 2, payload)));
        nextPosition = low + 3;
        positions.add(low);
      }
      journal.flush();
      return positions;
    }

    /** Commits every record up to the entry at {@code index}. */
    void commitThrough(long index) {
      try (JournalReader reader = journal.openReader()) {
        reader.seek(index);
        committed.set(reader.next().asqn() + 2);
      }
    }

    long archivedIndex() throws Exception {
      return archiver.archivedIndex().get(30, TimeUnit.SECONDS);
    }
  }

  private ArchiveObjects failing(ArchiveObjects objects) {
    return new ArchiveObjects() {
      private <T> CompletableFuture<T> unlessFailing(
          java.util.function.Supplier<CompletableFuture<T>> call) {
        return storeFails.get()
            ? CompletableFuture.failedFuture(
                new io.cairn.backupapi.BackupStoreException("the store is down (test)"))
            : call.get();
      }

      @Override
      public CompletableFuture<Boolean> create(String key, byte[] content) {
        return unlessFailing(() -> objects.create(key, content));
      }

      @Override
      public CompletableFuture<Optional<byte[]>> read(String key) {
        return unlessFailing(() -> objects.read(key));
      }

      @Override
      public CompletableFuture<List<String>> list(String directory, String startAfter, int limit) {
        return unlessFailing(() -> objects.list(directory, startAfter, limit));
      }

      @Override
      public CompletableFuture<Void> delete(String key) {
        return unlessFailing(() -> objects.delete(key));
      }
    };
  }

  private List<ArchivedRecord> archivedRecords(long from, long to) throws Exception {
    LogArchive archive = new LogArchive(store.archive(), PARTITION);
    List<ArchivedRecord> records = new ArrayList<>();
    for (StoredLink link : archive.chain(from, to).get(30, TimeUnit.SECONDS)) {
      records.addAll(archive.read(link.link()).get(30, TimeUnit.SECONDS));
    }
    return records.stream().filter(r -> r.index() >= from && r.index() <= to).toList();
  }

  private static void assertSameRecords(
      List<ArchivedRecord> archived, SegmentedJournal journal, long from, long to) {
    assertThat(archived).hasSize((int) (to - from + 1));
    try (JournalReader reader = journal.openReader()) {
      reader.seek(from);
      for (ArchivedRecord record : archived) {
        JournalRecord original = reader.next();
        assertThat(record.index()).isEqualTo(original.index());
        assertThat(record.asqn()).isEqualTo(original.asqn());
        assertThat(record.checksum()).isEqualTo(original.checksum());
        byte[] data = new byte[original.data().capacity()];
        original.data().getBytes(0, data);
        assertThat(record.data()).isEqualTo(data);
      }
    }
  }

  @Test
  void leaderArchivesExactlyTheCommittedRecordsWithTheirRestorePoints() throws Exception {
    Member leader = new Member(0);
    List<ArchivedCheckpoint> checkpoints = new ArrayList<>();
    leader.append(60, 1, checkpoints);
    leader.commitThrough(40);
    leader.archiver.leading(true);

    await().atMost(TIMEOUT).until(() -> leader.archivedIndex() == 40);
    Thread.sleep(300);
    assertThat(leader.archivedIndex())
        .as("records after the commit are not archived")
        .isEqualTo(40);
    assertSameRecords(archivedRecords(1, 40), leader.journal, 1, 40);

    leader.commitThrough(60);
    await().atMost(TIMEOUT).until(() -> leader.archivedIndex() == 60);
    assertSameRecords(archivedRecords(1, 60), leader.journal, 1, 60);
    List<ArchivedCheckpoint> recorded = new ArrayList<>();
    LogArchive archive = new LogArchive(store.archive(), PARTITION);
    for (StoredLink link : archive.chain(1, 60).get()) {
      recorded.addAll(link.link().checkpoints());
    }
    assertThat(recorded).isEqualTo(checkpoints);
    // the newest restore point's time, from which the recovery point objective is read
    assertThat(registry.get(ArchiveMetrics.POINT_TIMESTAMP).gauge().value())
        .isEqualTo(checkpoints.get(checkpoints.size() - 1).timestamp() / 1000.0);
    assertThat(archive.chain(1, 60).get()).hasSizeGreaterThan(2); // chunks of at most 8 KiB
    assertThat(leader.hold.index()).isEqualTo(61);
  }

  @Test
  void leadersThatTakeOverOrRaceContinueOneChainAndFollowersReleaseWhatIsArchived()
      throws Exception {
    Member first = new Member(0);
    Member second = new Member(1);
    List<ArchivedCheckpoint> ignored = new ArrayList<>();
    first.append(30, 1, ignored);
    second.append(30, 1, new ArrayList<>());
    first.commitThrough(20);
    first.archiver.leading(true);
    await().atMost(TIMEOUT).until(() -> first.archivedIndex() == 20);
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(second.hold.index()).isEqualTo(21));

    // both lead for a while (an old leader that has not learned it lost), then the second alone
    first.append(30, 2, ignored);
    second.append(30, 2, new ArrayList<>());
    first.commitThrough(60);
    second.commitThrough(60);
    second.archiver.leading(true);
    await()
        .atMost(TIMEOUT)
        .until(() -> first.archivedIndex() == 60 || second.archivedIndex() == 60);
    first.archiver.leading(false);
    second.append(10, 3, new ArrayList<>());
    second.commitThrough(70);
    await().atMost(TIMEOUT).until(() -> second.archivedIndex() == 70);

    assertSameRecords(archivedRecords(1, 70), second.journal, 1, 70);
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(first.hold.index()).isEqualTo(71));
  }

  @Test
  void aStoreThatFailsHoldsCompactionUpToTheLimitThenTheArchiveRecordsItsGap() throws Exception {
    Member leader = new Member(0);
    List<ArchivedCheckpoint> ignored = new ArrayList<>();
    leader.append(20, 1, ignored);
    leader.commitThrough(20);
    leader.archiver.leading(true);
    await().atMost(TIMEOUT).until(() -> leader.archivedIndex() == 20);

    storeFails.set(true);
    leader.append(40, 1, ignored);
    leader.commitThrough(60);
    Thread.sleep(300);
    assertThat(leader.hold.index()).as("held for the archive").isEqualTo(21);
    assertThat(leader.archiver.problem()).isEmpty();

    leader.append(200, 1, ignored); // ~100 KiB: over the 64 KiB limit
    leader.commitThrough(260);
    await().atMost(TIMEOUT).until(() -> !leader.archiver.problem().isEmpty());
    assertThat(leader.archiver.problem())
        .contains("backup.archive.maxUnarchivedBytes (65536)")
        .contains("the archive will have a gap");
    assertThat(leader.hold.index()).isEqualTo(261);
    assertThat(registry.get(ArchiveMetrics.HOLD_RELEASED).gauge().value()).isEqualTo(1.0);

    leader.journal.deleteUntil(200); // compaction, which no longer waits
    long firstIndex = leader.journal.getFirstIndex();
    assertThat(firstIndex).isGreaterThan(21);
    storeFails.set(false);
    await().atMost(Duration.ofSeconds(60)).until(() -> leader.archivedIndex() == 260);
    assertThat(leader.archiver.problem()).isEmpty();
    assertThat(registry.get(ArchiveMetrics.GAPS).counter().count()).isEqualTo(1.0);
    assertSameRecords(archivedRecords(firstIndex, 260), leader.journal, firstIndex, 260);

    LogArchive archive = new LogArchive(store.archive(), PARTITION);
    assertThatThrownBy(() -> archive.chain(10, 260).join())
        .hasCauseInstanceOf(ArchiveException.class)
        .hasMessageContaining("partition " + PARTITION)
        .hasMessageContaining("index 21")
        .hasMessageContaining("next archived index is " + firstIndex);
  }

  @Test
  void aLeaderWhoseLogLeftTheArchivedHistoryArchivesNothingAndSaysSo() throws Exception {
    Member original = new Member(0);
    original.append(20, 1, new ArrayList<>());
    original.commitThrough(20);
    original.archiver.leading(true);
    await().atMost(TIMEOUT).until(() -> original.archivedIndex() == 20);
    original.archiver.leading(false);

    // a member restored to index 10 went on in a later term: its records from 11 on differ
    Member restored = new Member(1);
    restored.append(10, 1, new ArrayList<>());
    restored.append(20, 5, new ArrayList<>());
    restored.commitThrough(30);
    restored.archiver.leading(true);
    await().atMost(TIMEOUT).until(() -> !restored.archiver.problem().isEmpty());
    assertThat(restored.archiver.problem())
        .contains("differs from the archived one at index 20")
        .contains("nothing more is archived");
    Thread.sleep(300);
    LogArchive archive = new LogArchive(store.archive(), PARTITION);
    assertThat(archive.tail(Optional.empty()).get().orElseThrow().link().toIndex()).isEqualTo(20);
    assertThat(restored.hold.index()).isEqualTo(31);
  }

  @Test
  void aLeaderWhoseLogStartsPastTheTailArchivesTheRecordsBetweenFromAnotherMember()
      throws Exception {
    Member follower = new Member(0);
    follower.append(60, 1, new ArrayList<>());
    AtomicLong unreachable = new AtomicLong(2); // the first two rounds: the member is down
    List<long[]> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
    ArchivePeers peers =
        (from, to, maxBytes) -> {
          asked.add(new long[] {from, to});
          return unreachable.getAndDecrement() > 0
              ? CompletableFuture.failedFuture(new IllegalStateException("member 0 is down"))
              : follower.archiver.recordsForPeer(from, to, maxBytes);
        };
    // archived up to 20 by an earlier leader
    follower.commitThrough(20);
    follower.archiver.leading(true);
    await().atMost(TIMEOUT).until(() -> follower.archivedIndex() == 20);
    follower.archiver.leading(false);
    follower.commitThrough(60);

    // a member that installed a snapshot at index 40 (its log starts at 41) is elected
    Member leader = new Member(1, peers);
    leader.journal.reset(41);
    try (JournalReader reader = follower.journal.openReader()) {
      reader.seek(41);
      while (reader.hasNext()) {
        leader.journal.append(reader.next());
      }
    }
    leader.committed.set(follower.committed.get());
    leader.archiver.leading(true);
    await().atMost(Duration.ofSeconds(60)).until(() -> leader.archivedIndex() == 60);

    assertThat(registry.find(ArchiveMetrics.GAPS).counter())
        .satisfiesAnyOf(c -> assertThat(c).isNull(), c -> assertThat(c.count()).isZero());
    assertThat(asked).as("rounds of asking").hasSizeGreaterThanOrEqualTo(3);
    assertThat(asked.get(0)).containsExactly(21, 40);
    assertThat(registry.get(ArchiveMetrics.FROM_MEMBERS).counter().count()).isEqualTo(20.0);
    assertSameRecords(archivedRecords(1, 60), follower.journal, 1, 60);
  }

  @Test
  void aLeaderWhoseLogStartsPastTheTailStartsANewChainWhenNoMemberHoldsTheRecords()
      throws Exception {
    Member first = new Member(0);
    first.append(20, 1, new ArrayList<>());
    first.commitThrough(20);
    first.archiver.leading(true);
    await().atMost(TIMEOUT).until(() -> first.archivedIndex() == 20);
    first.archiver.leading(false);

    Member leader =
        new Member(1, (from, to, maxBytes) -> CompletableFuture.completedFuture(List.of()));
    leader.journal.reset(41);
    leader.nextPosition = 41 * 3;
    leader.append(20, 2, new ArrayList<>());
    leader.commitThrough(60);
    leader.archiver.leading(true);
    await().atMost(TIMEOUT).until(() -> leader.archivedIndex() == 60);

    assertThat(registry.get(ArchiveMetrics.GAPS).counter().count()).isEqualTo(1.0);
    assertSameRecords(archivedRecords(41, 60), leader.journal, 41, 60);
    LogArchive archive = new LogArchive(store.archive(), PARTITION);
    assertThatThrownBy(() -> archive.chain(10, 60).join())
        .hasCauseInstanceOf(ArchiveException.class)
        .hasMessageContaining("index 21")
        .hasMessageContaining("next archived index is 41");
  }
}
