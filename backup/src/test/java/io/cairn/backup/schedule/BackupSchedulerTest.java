package io.cairn.backup.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.ClusterBackupStatus;
import io.cairn.backupapi.ClusterBackupStatusCode;
import io.cairn.pacing.Backoff;
import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The schedule on simulated time against a model of the partitions that keeps their contract: a
 * partition creates a checkpoint only for an id above its latest and answers IGNORED (with its
 * latest) otherwise; an unreachable partition answers nothing useful.
 */
class BackupSchedulerTest {

  private static final Duration INTERVAL = Duration.ofMinutes(1);
  private static final long START = 1_800_000_000_000L + 17_000; // 17 s into a slot
  private static final Backoff BACKOFF = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(8));

  private final SimClock clock = new SimClock(START);
  private final DeterministicScheduler scheduler = new DeterministicScheduler(clock);
  private final Partitions partitions = new Partitions(3);
  private final BackupSchedule schedule = new BackupSchedule(INTERVAL);

  @Test
  void shouldTakeEverySlotOnceOnTimeWithItsStartAsId() {
    BackupScheduler running = start(() -> true);

    scheduler.runFor(Duration.ofMinutes(10));

    long first = schedule.slotAt(START);
    List<Long> expected = new ArrayList<>();
    for (long slot = first; slot <= START + Duration.ofMinutes(10).toMillis(); slot += 60_000) {
      expected.add(slot);
    }
    assertThat(partitions.created())
        .as("checkpoints created on every partition")
        .isEqualTo(expected);
    // the current slot at once, every later one within a tick of its start
    assertThat(partitions.lateness(1)).isLessThanOrEqualTo(BackupScheduler.TICK.toMillis());
    assertThat(partitions.requests).as("one request per slot, nothing sent twice").hasSize(11);
    ScheduleStatus status = await(running.status()).orElseThrow();
    assertThat(status.lastRun().orElseThrow().outcome().kind()).isEqualTo(TakeOutcome.Kind.TAKEN);
    assertThat(status.nextBackupId()).isEqualTo(expected.get(expected.size() - 1) + 60_000);
  }

  @Test
  void shouldNeitherDoubleNorSkipASlotWhenTheLeadershipMovesDuringARun() {
    partitions.answerAfter = Duration.ofSeconds(2);
    Leader leader = new Leader();
    start(() -> leader.node == 0);
    start(() -> leader.node == 1);

    // the leadership moves back and forth, some moves while a run is in flight
    for (int step = 0; step < 40; step++) {
      scheduler.runFor(Duration.ofSeconds(31));
      leader.node = (leader.node + 1) % 2;
    }

    long first = schedule.slotAt(START);
    long last = schedule.slotAt(clock.millis());
    List<Long> expected = new ArrayList<>();
    for (long slot = first; slot <= last; slot += 60_000) {
      expected.add(slot);
    }
    assertThat(partitions.created()).as("every slot once, none skipped").isEqualTo(expected);
    assertThat(partitions.requests).as("only slot ids are requested").allMatch(expected::contains);
  }

  @Test
  void shouldTakeTheCurrentSlotAfterADowntimeAndNothingTwiceAfterARestartWithinASlot() {
    BackupScheduler first = start(() -> true);
    scheduler.runFor(Duration.ofSeconds(10));
    await(first.closeAsync());

    // restarted within the same slot: the slot is not taken again
    BackupScheduler second = start(() -> true);
    scheduler.runFor(Duration.ofSeconds(5));
    assertThat(await(second.status()).orElseThrow().lastRun())
        .map(run -> run.outcome().kind())
        .contains(TakeOutcome.Kind.ALREADY_TAKEN);
    await(second.closeAsync());

    // down over two slot starts: the newest slot is taken at once
    clock.advance(Duration.ofMinutes(2));
    start(() -> true);
    scheduler.runFor(Duration.ofSeconds(1));

    long slot = schedule.slotAt(START);
    assertThat(partitions.created()).containsExactly(slot, slot + 120_000);
  }

  @Test
  void shouldBackOffWhilePartitionsAreUnreachableThenTakeTheSameId() {
    partitions.unreachable = true;
    BackupScheduler running = start(() -> true);

    scheduler.runFor(Duration.ofSeconds(30));
    List<Long> attempts = new ArrayList<>(partitions.requestTimes);
    partitions.unreachable = false;
    scheduler.runFor(Duration.ofSeconds(10));

    // waits of 1, 2, 4, 8, 8, ... seconds (plus up to a tick)
    assertThat(attempts).hasSizeBetween(5, 7);
    for (int i = 1; i < Math.min(attempts.size(), 5); i++) {
      long gap = attempts.get(i) - attempts.get(i - 1);
      long ceiling = BACKOFF.ceiling(i).toMillis();
      assertThat(gap).as("wait before retry %d", i).isBetween(ceiling, ceiling + 500);
    }
    assertThat(partitions.created()).containsExactly(schedule.slotAt(START));
    ScheduleStatus status = await(running.status()).orElseThrow();
    assertThat(status.consecutiveFailures()).isZero();
    assertThat(status.lastRun().orElseThrow().attempt()).isGreaterThan(4);
  }

  @Test
  void shouldHoldBackWhileScheduledBackupsFailInTheStoreAndResumeOnceOneCompletes() {
    partitions.storeDown = true;
    BackupScheduler running = start(() -> true);
    long first = schedule.slotAt(START);

    scheduler.runFor(Duration.ofMinutes(40));

    // each FAILED backup found before the next run holds it back 1, 2, 4, 8, 16 intervals
    long minute = INTERVAL.toMillis();
    assertThat(partitions.created())
        .as("backups taken while the store fails them")
        .containsExactly(
            first,
            first + 2 * minute,
            first + 5 * minute,
            first + 10 * minute,
            first + 19 * minute,
            first + 36 * minute);
    assertThat(await(running.status()).orElseThrow().consecutiveFailures()).isEqualTo(6);

    // the store is back: the next backup completes, and every slot is taken again after it
    partitions.storeDown = false;
    scheduler.runFor(Duration.ofMinutes(80));
    List<Long> created = partitions.created();
    List<Long> lastFive = created.subList(created.size() - 5, created.size());
    for (int i = 1; i < lastFive.size(); i++) {
      assertThat(lastFive.get(i) - lastFive.get(i - 1)).as("gap after recovery").isEqualTo(minute);
    }
    assertThat(await(running.status()).orElseThrow().consecutiveFailures()).isZero();
  }

  @Test
  void shouldGoOnWhenTheStoreNeverSaysHowTheLastBackupEnded() {
    partitions.storeSilent = true;
    start(() -> true);

    scheduler.runFor(Duration.ofMinutes(10));

    // each run waits a minute for the answer about the one before it, then goes on
    assertThat(partitions.created()).hasSizeGreaterThanOrEqualTo(4);
  }

  @Test
  void shouldSkipASlotSupersededByAHigherIdAndGoOn() {
    long slot = schedule.slotAt(START);
    partitions.takeByHand(slot + 30_000);
    start(() -> true);

    scheduler.runFor(Duration.ofSeconds(50));

    assertThat(partitions.created()).containsExactly(slot + 30_000, slot + 60_000);
  }

  @Test
  void shouldRunOnlyWhileLeadingPartitionOne() {
    BackupScheduler follower = start(() -> false);

    scheduler.runFor(Duration.ofMinutes(3));

    assertThat(partitions.requests).isEmpty();
    assertThat(await(follower.status())).isEmpty();
  }

  @Test
  void shouldTakeAMarkerInEveryMarkerSlotBetweenBackupsAndMergeThoseAtABackup() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    BackupScheduleMetrics metrics = new BackupScheduleMetrics(registry);
    MarkerSchedule markers = new MarkerSchedule(Duration.ofSeconds(10), schedule);
    List<Long> marked = new ArrayList<>();
    CheckpointTaker marker =
        id -> {
          marked.add(id);
          return partitions.take(id);
        };
    BackupScheduler running =
        start(() -> true, metrics, Optional.of(new MarkerRuns(markers, marker, metrics)));

    scheduler.runFor(Duration.ofMinutes(3));

    // every 10 s slot is a checkpoint: the minute's as a backup, the five between as markers
    long first = schedule.slotAt(START);
    List<Long> expected = new ArrayList<>();
    for (long slot = first; slot <= clock.millis(); slot += 10_000) {
      expected.add(slot);
    }
    assertThat(partitions.created()).as("checkpoints, in order").isEqualTo(expected);
    assertThat(marked).as("markers").allMatch(id -> id % 60_000 != 0).hasSize(expected.size() - 4);
    assertThat(registry.get(BackupScheduleMetrics.MARKERS).tag("result", "taken").counter().count())
        .isEqualTo(marked.size());
    assertThat(
            registry.get(BackupScheduleMetrics.MARKERS).tag("result", "merged").counter().count())
        .as("the markers at the minutes, merged into the backups there")
        .isEqualTo(3);
    // the status names the last marker taken
    ScheduleStatus.MarkerStatus status =
        await(running.status()).orElseThrow().markers().orElseThrow();
    assertThat(status.interval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(status.failuresInARow()).isZero();
    assertThat(status.lastMarker())
        .hasValueSatisfying(
            last -> {
              assertThat(last.markerId()).isEqualTo(marked.get(marked.size() - 1));
              assertThat(last.outcome().kind()).isEqualTo(TakeOutcome.Kind.TAKEN);
              assertThat(last.finishedMillis()).isBetween(last.markerId(), clock.millis());
            });
  }

  @Test
  void shouldTakeNoMarkerWhileItDoesNotLeadPartitionOne() {
    MarkerSchedule markers = new MarkerSchedule(Duration.ofSeconds(10), schedule);
    BackupScheduleMetrics metrics = new BackupScheduleMetrics(new SimpleMeterRegistry());
    start(() -> false, metrics, Optional.of(new MarkerRuns(markers, partitions, metrics)));

    scheduler.runFor(Duration.ofMinutes(1));

    assertThat(partitions.requests).isEmpty();
  }

  private BackupScheduler start(BooleanSupplier leads) {
    return start(leads, new BackupScheduleMetrics(new SimpleMeterRegistry()), Optional.empty());
  }

  private BackupScheduler start(
      BooleanSupplier leads, BackupScheduleMetrics metrics, Optional<MarkerRuns> markers) {
    BackupScheduler actor =
        new BackupScheduler(
            schedule,
            leads,
            partitions,
            BACKOFF,
            metrics,
            Optional.empty(),
            Optional.of(partitions::stored),
            markers);
    await(scheduler.start(actor));
    return actor;
  }

  private static final class Leader {
    int node;
  }

  /** The partitions' checkpoint contract, answered after a delay on the simulated scheduler. */
  private final class Partitions implements CheckpointTaker {
    private final long[] latest;
    private final TreeMap<Long, Long> createdAt = new TreeMap<>();
    final List<Long> requests = new ArrayList<>();
    final List<Long> requestTimes = new ArrayList<>();
    Duration answerAfter = Duration.ofMillis(50);
    boolean unreachable;

    /** Backups created while true end FAILED in the store, the others COMPLETED. */
    boolean storeDown;

    /** While true, the store never answers a status question. */
    boolean storeSilent;

    private final java.util.Set<Long> failedInStore = new java.util.HashSet<>();

    /** The cluster status of a backup in the store, answered after a delay. */
    CompletableFuture<ClusterBackupStatus> stored(long id) {
      ClusterBackupStatusCode code =
          !createdAt.containsKey(id)
              ? ClusterBackupStatusCode.DOES_NOT_EXIST
              : failedInStore.contains(id)
                  ? ClusterBackupStatusCode.FAILED
                  : ClusterBackupStatusCode.COMPLETED;
      CompletableFuture<ClusterBackupStatus> answer = new CompletableFuture<>();
      if (storeSilent) {
        return answer;
      }
      scheduler.schedule(
          answerAfter,
          () ->
              answer.complete(
                  new ClusterBackupStatus(
                      id,
                      code,
                      code == ClusterBackupStatusCode.FAILED
                          ? Optional.of("partition 1 failed: store unreachable")
                          : Optional.empty(),
                      java.util.Map.of())));
      return answer;
    }

    Partitions(int count) {
      latest = new long[count];
    }

    void takeByHand(long id) {
      for (int p = 0; p < latest.length; p++) {
        latest[p] = id;
      }
      createdAt.put(id, clock.millis());
    }

    List<Long> created() {
      return new ArrayList<>(createdAt.keySet());
    }

    /** How long after its slot began the {@code index}-th checkpoint was created. */
    long lateness(int index) {
      Long id = created().get(index);
      return createdAt.get(id) - id;
    }

    @Override
    public CompletableFuture<TakeOutcome> take(long id) {
      requests.add(id);
      requestTimes.add(clock.millis());
      CompletableFuture<TakeOutcome> answer = new CompletableFuture<>();
      scheduler.schedule(answerAfter, () -> answer.complete(answer(id)));
      return answer;
    }

    private TakeOutcome answer(long id) {
      if (unreachable) {
        return TakeOutcome.failed(id, "partition 2: unreachable");
      }
      boolean anyCreated = false;
      long highest = 0;
      for (int p = 0; p < latest.length; p++) {
        if (id > latest[p]) {
          latest[p] = id;
          anyCreated = true;
          createdAt.putIfAbsent(id, clock.millis());
          if (storeDown) {
            failedInStore.add(id);
          }
        }
        highest = Math.max(highest, latest[p]);
      }
      if (highest > id) {
        return TakeOutcome.superseded(highest);
      }
      return anyCreated ? TakeOutcome.taken(id) : TakeOutcome.alreadyTaken(id);
    }
  }

  /** Runs the simulation until {@code future} is done (the schedule's ticks never let it idle). */
  private <T> T await(CompletableFuture<T> future) {
    for (int i = 0; i < 100_000 && !future.isDone(); i++) {
      scheduler.runNext();
    }
    assertThat(future).as("done in the simulation").isDone();
    return future.join();
  }
}
