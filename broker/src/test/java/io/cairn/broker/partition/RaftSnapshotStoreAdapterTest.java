package io.cairn.broker.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.raft.RaftSnapshot;
import io.cairn.raft.RaftSnapshotChunk;
import io.cairn.raft.RaftSnapshotChunkReader;
import io.cairn.raft.RaftSnapshotReceiver;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotConfig;
import io.cairn.snapshot.SnapshotFile;
import io.cairn.snapshot.SnapshotMetrics;
import io.cairn.snapshot.store.FileSnapshotStore;
import io.cairn.snapshot.store.SnapshotLayout;
import io.cairn.snapshot.store.SnapshotPhaseListener;
import io.cairn.snapshot.store.TestSnapshots;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Snapshot replication through raft's interface: leader store → chunks → follower store. */
final class RaftSnapshotStoreAdapterTest {

  private static final int CHUNK_SIZE_BYTES = 1024;
  private static final SnapshotConfig CONFIG =
      SnapshotConfig.builder().replicationChunkSizeBytes(CHUNK_SIZE_BYTES).build();

  @TempDir Path root;
  private final SimpleMeterRegistry followerMeters = new SimpleMeterRegistry();
  private FileSnapshotStore leaderStore;
  private FileSnapshotStore followerStore;
  private RaftSnapshotStoreAdapter leader;
  private RaftSnapshotStoreAdapter follower;

  @BeforeEach
  void setUp() {
    leaderStore = TestSnapshots.open(root.resolve("leader"), CONFIG);
    followerStore =
        TestSnapshots.open(
            root.resolve("follower"), CONFIG, SnapshotPhaseListener.NONE, followerMeters);
    leader = new RaftSnapshotStoreAdapter(leaderStore);
    follower = new RaftSnapshotStoreAdapter(followerStore);
  }

  @AfterEach
  void tearDown() {
    leader.close();
    follower.close();
    leaderStore.close();
    followerStore.close();
  }

  @Test
  void shouldTransferSnapshotInChecksummedChunksAndCommitAnIdenticalCopy() throws IOException {
    PersistedSnapshot original = takeLarge(1);
    RaftSnapshot snapshot = leader.latestSnapshot().orElseThrow();
    assertThat(snapshot.index()).isEqualTo(original.index());
    assertThat(snapshot.term()).isEqualTo(original.term());

    List<RaftSnapshotChunk> chunks = readAll(snapshot);
    assertThat(chunks.get(0).name()).isEqualTo(SnapshotLayout.CHECKSUM_FILE);
    assertThat(chunks).allSatisfy(c -> assertThat(c.data().length).isLessThanOrEqualTo(1024));
    assertThat(chunks).allSatisfy(c -> assertThat(c.isIntact()).isTrue());
    assertThat(chunks).allSatisfy(c -> assertThat(c.chunkCount()).isEqualTo(chunks.size()));
    assertThat(chunks)
        .allSatisfy(c -> assertThat(c.snapshotChecksum()).isEqualTo(original.checksum()));
    assertThat(chunks.size()).isGreaterThan(original.files().size()); // files were split

    RaftSnapshotReceiver receiver = follower.newReceiver(snapshot.index(), snapshot.term());
    for (RaftSnapshotChunk chunk : chunks) {
      assertThat(receiver.accept(chunk)).isTrue();
    }
    assertThat(receiver.commit()).isTrue();

    PersistedSnapshot copy = followerStore.latestSnapshot().orElseThrow();
    assertThat(copy.id()).isEqualTo(original.id());
    assertThat(copy.metadata()).isEqualTo(original.metadata());
    for (SnapshotFile file : original.files()) {
      assertThat(Files.readAllBytes(copy.directory().resolve(file.name())))
          .isEqualTo(Files.readAllBytes(file.path()));
    }
    followerStore.verify(copy.id());
    assertThat(follower.latestSnapshot().map(RaftSnapshot::index)).contains(original.index());
    assertThat(
            followerMeters
                .get(SnapshotMetrics.REPLICATION_BYTES)
                .tag("operation", "receive")
                .counter()
                .count())
        .isEqualTo(chunks.stream().mapToLong(c -> c.data().length).sum());
    assertTransientEmpty(followerStore);
  }

  @Test
  void shouldRejectChunkWithFlippedBitAndSucceedOnRetriedTransfer() {
    takeLarge(1);
    RaftSnapshot snapshot = leader.latestSnapshot().orElseThrow();
    List<RaftSnapshotChunk> chunks = readAll(snapshot);
    int victim = chunks.size() / 2;

    RaftSnapshotReceiver broken = follower.newReceiver(snapshot.index(), snapshot.term());
    for (int i = 0; i < victim; i++) {
      assertThat(broken.accept(chunks.get(i))).isTrue();
    }
    assertThat(broken.accept(flipped(chunks.get(victim), false))).isFalse();
    assertThat(broken.accept(chunks.get(victim))).isFalse(); // accepts nothing more
    broken.abort();
    assertThat(followerStore.snapshots()).isEmpty();
    assertTransientEmpty(followerStore);

    RaftSnapshotReceiver retry = follower.newReceiver(snapshot.index(), snapshot.term());
    for (RaftSnapshotChunk chunk : readAll(snapshot)) {
      assertThat(retry.accept(chunk)).isTrue();
    }
    assertThat(retry.commit()).isTrue();
    assertThat(followerStore.latestSnapshot()).isPresent();
  }

  @Test
  void shouldRejectFileThatDoesNotMatchChecksumFileEvenIfChunkChecksumMatches() {
    takeLarge(1);
    RaftSnapshot snapshot = leader.latestSnapshot().orElseThrow();
    List<RaftSnapshotChunk> chunks = readAll(snapshot);
    // a chunk damaged before its chunk checksum was computed: only the file's CRC32C catches it
    int victim = lastChunkOfSecondFile(chunks);

    RaftSnapshotReceiver receiver = follower.newReceiver(snapshot.index(), snapshot.term());
    for (int i = 0; i < victim; i++) {
      assertThat(receiver.accept(chunks.get(i))).isTrue();
    }
    assertThat(receiver.accept(flipped(chunks.get(victim), true))).isFalse();
    receiver.abort();
    assertThat(followerStore.snapshots()).isEmpty();
    assertTransientEmpty(followerStore);
  }

  @Test
  void shouldRejectChecksumFileThatDoesNotMatchWholeSnapshotChecksum() {
    takeLarge(1);
    RaftSnapshot snapshot = leader.latestSnapshot().orElseThrow();
    List<RaftSnapshotChunk> chunks = readAll(snapshot);

    RaftSnapshotReceiver receiver = follower.newReceiver(snapshot.index(), snapshot.term());
    boolean refused = false;
    for (RaftSnapshotChunk chunk : chunks) {
      RaftSnapshotChunk other =
          new RaftSnapshotChunk(
              chunk.chunkIndex(),
              chunk.chunkCount(),
              chunk.name(),
              chunk.data(),
              chunk.checksum(),
              chunk.snapshotChecksum() ^ 1);
      if (!receiver.accept(other)) {
        refused = true;
        break;
      }
    }
    assertThat(refused).isTrue();
    assertThat(receiver.commit()).isFalse();
    receiver.abort();
    assertThat(followerStore.snapshots()).isEmpty();
  }

  @Test
  void shouldLeaveNothingBehindWhenTransferIsInterruptedAndRestartCleanly() {
    takeLarge(1);
    RaftSnapshot snapshot = leader.latestSnapshot().orElseThrow();
    List<RaftSnapshotChunk> chunks = readAll(snapshot);

    RaftSnapshotReceiver interrupted = follower.newReceiver(snapshot.index(), snapshot.term());
    for (int i = 0; i < chunks.size() - 2; i++) {
      assertThat(interrupted.accept(chunks.get(i))).isTrue();
    }
    assertThat(interrupted.commit()).isFalse(); // incomplete
    interrupted.abort();
    assertTransientEmpty(followerStore);

    RaftSnapshotReceiver replaced = follower.newReceiver(snapshot.index(), snapshot.term());
    assertThat(replaced.accept(chunks.get(0))).isTrue();
    assertThat(replaced.accept(chunks.get(1))).isTrue();
    // the leader restarts: a new receiver aborts the previous one
    RaftSnapshotReceiver restarted = follower.newReceiver(snapshot.index(), snapshot.term());
    assertTransientEmpty(followerStore);
    assertThat(restarted.accept(chunks.get(1))).isFalse(); // out of order
    restarted.abort();

    RaftSnapshotReceiver complete = follower.newReceiver(snapshot.index(), snapshot.term());
    chunks.forEach(chunk -> assertThat(complete.accept(chunk)).isTrue());
    assertThat(complete.commit()).isTrue();
    complete.abort(); // a no-op after commit
    assertThat(followerStore.latestSnapshot()).isPresent();
    assertTransientEmpty(followerStore);
  }

  @Test
  void shouldRefuseSnapshotWhoseMetadataNamesAnotherIndex() {
    PersistedSnapshot original = takeLarge(1);
    RaftSnapshot snapshot = leader.latestSnapshot().orElseThrow();

    RaftSnapshotReceiver receiver = follower.newReceiver(original.index() + 1, 1);
    readAll(snapshot).forEach(chunk -> assertThat(receiver.accept(chunk)).isTrue());
    assertThat(receiver.commit()).isFalse();
    receiver.abort();
    assertThat(followerStore.snapshots()).isEmpty();
    assertTransientEmpty(followerStore);
  }

  @Test
  void shouldKeepSnapshotReadableWhileTransferRunsAndReleaseItAfterwards() {
    PersistedSnapshot first = takeLarge(1);
    RaftSnapshot snapshot = leader.latestSnapshot().orElseThrow();
    RaftSnapshotReceiver receiver = follower.newReceiver(snapshot.index(), snapshot.term());
    try (RaftSnapshotChunkReader reader = snapshot.openChunkReader()) {
      assertThat(receiver.accept(reader.next())).isTrue();
      PersistedSnapshot second = TestSnapshots.take(leaderStore, 2); // retention keeps 1
      assertThat(leaderStore.snapshots()).contains(first, second);
      assertThat(leader.latestSnapshot().map(RaftSnapshot::index)).contains(second.index());
      while (reader.hasNext()) {
        assertThat(receiver.accept(reader.next())).isTrue();
      }
    }
    assertThat(receiver.commit()).isTrue();
    assertThat(leaderStore.snapshots()).contains(first); // the first is still pinned...
    // ...until raft asks again and no reader is open on it
    assertThat(leader.latestSnapshot()).isPresent();
    assertThat(leaderStore.snapshots())
        .extracting(PersistedSnapshot::id)
        .containsExactly(TestSnapshots.metadata(2).id());
    assertThat(first.directory()).doesNotExist();
    assertThat(leader.pinnedCount()).isEqualTo(1);
  }

  @Test
  void shouldReportCompactionBoundOfTheStore() {
    assertThat(leader.compactionBoundIndex()).isEqualTo(1);
    takeLarge(1);
    assertThat(leader.compactionBoundIndex()).isEqualTo(leaderStore.compactionBoundIndex());
    assertThat(leader.compactionBoundIndex()).isEqualTo(10);
  }

  private PersistedSnapshot takeLarge(long n) {
    return TestSnapshots.take(
        leaderStore, TestSnapshots.metadata(n), TestSnapshots.files(n, 4, 5 * CHUNK_SIZE_BYTES));
  }

  private static List<RaftSnapshotChunk> readAll(RaftSnapshot snapshot) {
    List<RaftSnapshotChunk> chunks = new ArrayList<>();
    try (RaftSnapshotChunkReader reader = snapshot.openChunkReader()) {
      reader.forEachRemaining(chunks::add);
    }
    return chunks;
  }

  private static RaftSnapshotChunk flipped(RaftSnapshotChunk chunk, boolean fixChecksum) {
    byte[] data = chunk.data().clone();
    data[data.length / 2] ^= 0x01;
    return new RaftSnapshotChunk(
        chunk.chunkIndex(),
        chunk.chunkCount(),
        chunk.name(),
        data,
        fixChecksum ? RaftSnapshotChunk.checksumOf(data) : chunk.checksum(),
        chunk.snapshotChecksum());
  }

  private static int lastChunkOfSecondFile(List<RaftSnapshotChunk> chunks) {
    String second =
        chunks.stream()
            .map(RaftSnapshotChunk::name)
            .filter(name -> !name.equals(SnapshotLayout.CHECKSUM_FILE))
            .filter(
                name ->
                    chunks.stream()
                        .filter(c -> c.name().equals(name))
                        .allMatch(c -> c.data().length > 0))
            .findFirst()
            .orElseThrow();
    int last = -1;
    for (RaftSnapshotChunk chunk : chunks) {
      if (chunk.name().equals(second)) {
        last = chunk.chunkIndex();
      }
    }
    return last;
  }

  private static void assertTransientEmpty(FileSnapshotStore store) {
    try (Stream<Path> entries = Files.list(store.directory().resolve("transient"))) {
      assertThat(entries).isEmpty();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
