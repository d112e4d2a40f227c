package io.cairn.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.db.StateDigest;
import io.cairn.scheduler.Actor;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.cairn.snapshot.store.FileSnapshotStore;
import io.cairn.snapshot.store.TestSnapshots;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The director in simulated time: periodic, on demand, skipping, waiting for the commit. */
final class SnapshotDirectorTest {

  private static final Duration INTERVAL = Duration.ofMinutes(1);

  @TempDir Path root;
  private final SimClock clock = new SimClock(10_000);
  private final DeterministicScheduler scheduler = new DeterministicScheduler(clock);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final Partition partition = new Partition();
  private final FakeSource source = new FakeSource();
  private FileSnapshotStore store;
  private SnapshotDirector director;

  @BeforeEach
  void setUp() {
    store = TestSnapshots.open(root);
    director =
        SnapshotDirector.builder()
            .owner(partition)
            .store(store)
            .source(source)
            .config(SnapshotConfig.builder().snapshotInterval(INTERVAL).build())
            .brokerVersion("0.1.0")
            .clock(clock)
            .ioExecutor(Runnable::run)
            .meterRegistry(registry)
            .build();
    scheduler.start(partition);
    partition.submit(director::start);
    scheduler.runUntilIdle();
  }

  @AfterEach
  void tearDown() {
    scheduler.close();
    store.close();
  }

  @Test
  void shouldTakeSnapshotEveryIntervalOnlyWhenSomethingWasProcessed() {
    source.process(5, 100, 103);
    scheduler.runFor(INTERVAL);

    PersistedSnapshot first = store.latestSnapshot().orElseThrow();
    assertThat(first.id()).isEqualTo(new SnapshotId(5, 1, 100, 103));
    assertThat(first.metadata().createdAtMillis()).isEqualTo(10_000 + INTERVAL.toMillis());
    assertThat(first.metadata().brokerVersion()).isEqualTo("0.1.0");
    assertThat(first.metadata().exportedPosition()).isEqualTo(50);
    assertThat(first.metadata().stateDigestHex()).isEqualTo(StateDigest.EMPTY.toHex());

    scheduler.runFor(INTERVAL); // nothing processed since
    assertThat(store.snapshots()).containsExactly(first);
    assertThat(attempts("skipped")).isEqualTo(1);

    source.process(9, 180, 181);
    scheduler.runFor(INTERVAL);
    assertThat(store.latestSnapshot().map(PersistedSnapshot::id))
        .contains(new SnapshotId(9, 1, 180, 181));
    assertThat(attempts("persisted")).isEqualTo(2);
  }

  @Test
  void shouldTakeNothingBeforeAnythingWasProcessed() {
    scheduler.runFor(INTERVAL.multipliedBy(3));
    assertThat(store.snapshots()).isEmpty();
    assertThat(attempts("skipped")).isEqualTo(3);
  }

  @Test
  void shouldTakeSnapshotOnDemandAndSkipWhenNothingChanged() {
    source.process(3, 30, 31);
    CompletableFuture<Optional<PersistedSnapshot>> taken = director.takeSnapshot();
    scheduler.runUntilIdle();
    assertThat(taken).isCompletedWithValueMatching(s -> s.orElseThrow().index() == 3);

    CompletableFuture<Optional<PersistedSnapshot>> again = director.takeSnapshot();
    scheduler.runUntilIdle();
    assertThat(again).isCompletedWithValue(Optional.empty());
  }

  @Test
  void shouldPersistOnlyOnceTheLogIsCommittedUpToTheLastWrittenPosition() throws IOException {
    source.process(4, 40, 45);
    source.committed = 44;
    CompletableFuture<Optional<PersistedSnapshot>> taken = director.takeSnapshot();
    CompletableFuture<Optional<PersistedSnapshot>> second = director.takeSnapshot();
    scheduler.runUntilIdle();

    assertThat(taken).isNotDone();
    assertThat(store.snapshots()).isEmpty();
    assertThat(transientEntries()).hasSize(1); // the checkpoint is taken, waiting

    source.committed = 45;
    partition.submit(director::commitPositionUpdated);
    scheduler.runUntilIdle();
    assertThat(taken).isCompletedWithValueMatching(s -> s.orElseThrow().index() == 4);
    assertThat(second).isCompletedWithValue(taken.join()); // the same one, not a second
    assertThat(transientEntries()).isEmpty();
  }

  @Test
  void shouldDropSnapshotNotCommittedWithinAnInterval() throws IOException {
    source.process(4, 40, 45);
    source.committed = 40;
    CompletableFuture<Optional<PersistedSnapshot>> taken = director.takeSnapshot();
    scheduler.runUntilIdle();

    scheduler.runFor(INTERVAL);
    assertThat(taken).isCompletedExceptionally();
    assertThat(attempts("failed")).isEqualTo(1);
    assertThat(transientEntries()).hasSize(1); // a fresh attempt waits now

    source.committed = 45;
    partition.submit(director::commitPositionUpdated);
    scheduler.runUntilIdle();
    assertThat(store.latestSnapshot()).isPresent();
    assertThat(transientEntries()).isEmpty();
  }

  @Test
  void shouldReportFailedStateWriteAndRetryNextInterval() throws IOException {
    source.process(4, 40, 45);
    source.failWrites = true;
    CompletableFuture<Optional<PersistedSnapshot>> taken = director.takeSnapshot();
    scheduler.runUntilIdle();
    assertThat(taken).isCompletedExceptionally();
    assertThat(transientEntries()).isEmpty();

    source.failWrites = false;
    scheduler.runFor(INTERVAL);
    assertThat(store.latestSnapshot()).isPresent();
    assertThat(attempts("failed")).isEqualTo(1);
    assertThat(attempts("persisted")).isEqualTo(1);
  }

  @Test
  void shouldStopTakingSnapshotsWhenClosed() {
    partition.submit(director::close);
    scheduler.runUntilIdle();
    source.process(4, 40, 45);
    scheduler.runFor(INTERVAL.multipliedBy(2));
    assertThat(store.snapshots()).isEmpty();
  }

  @Test
  void shouldCompleteASnapshotThatPersistsWhileItsOwnerCloses() {
    // given a snapshot persisting on the I/O executor
    List<Runnable> io = new ArrayList<>();
    Partition owner = new Partition();
    SnapshotDirector slowIo =
        SnapshotDirector.builder()
            .owner(owner)
            .store(store)
            .source(source)
            .config(SnapshotConfig.builder().snapshotInterval(INTERVAL).build())
            .brokerVersion("0.1.0")
            .clock(clock)
            .ioExecutor(io::add)
            .meterRegistry(registry)
            .build();
    scheduler.start(owner);
    source.process(4, 40, 45);
    CompletableFuture<Optional<PersistedSnapshot>> taken = slowIo.takeSnapshot();
    scheduler.runUntilIdle();
    assertThat(io).hasSize(1);

    // when the owner closes before the I/O ends (a leader change, a shutdown)
    owner.submit(slowIo::close);
    owner.closeAsync();
    scheduler.runUntilIdle();
    io.get(0).run();
    scheduler.runUntilIdle();

    // then the caller still learns the outcome instead of waiting forever
    assertThat(taken).isCompletedWithValueMatching(s -> s.orElseThrow().index() == 4);
    assertThat(store.latestSnapshot().map(PersistedSnapshot::index)).contains(4L);
    assertThat(attempts("persisted")).isEqualTo(1);
  }

  private double attempts(String result) {
    return registry.get(SnapshotMetrics.ATTEMPTS).tag("result", result).counter().count();
  }

  private List<Path> transientEntries() throws IOException {
    try (Stream<Path> entries = Files.list(root.resolve("transient"))) {
      return entries.toList();
    }
  }

  private static final class Partition extends Actor {
    Partition() {
      super("partition-1");
    }
  }

  private static final class FakeSource implements SnapshotSource {
    private SnapshotPositions positions;
    private long committed = Long.MAX_VALUE;
    private boolean failWrites;

    void process(long index, long processed, long written) {
      positions = new SnapshotPositions(index, 1, processed, processed / 2, written);
    }

    @Override
    public Optional<SnapshotPositions> positions() {
      return Optional.ofNullable(positions);
    }

    @Override
    public StateDigest stateDigest() {
      return StateDigest.EMPTY;
    }

    @Override
    public void writeState(Path target) throws IOException {
      if (failWrites) {
        throw new IOException("no space left on device");
      }
      TestSnapshots.files(positions.index(), 2, 512).write(target);
    }

    @Override
    public long committedPosition() {
      return committed;
    }
  }
}
