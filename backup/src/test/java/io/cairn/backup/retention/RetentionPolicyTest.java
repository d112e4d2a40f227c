package io.cairn.backup.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backup.retention.RetentionPolicy.Candidate;
import io.cairn.backupapi.ClusterBackupStatusCode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RetentionPolicyTest {

  private static final long HOUR = Duration.ofHours(1).toMillis();
  private static final long SEED = 0x5EED_2026L;

  @Test
  void shouldKeepTheNewestCountAndDeleteTheRest() {
    RetentionPolicy policy = new RetentionPolicy(OptionalInt.of(2), Optional.empty(), 1);
    List<Candidate> backups =
        List.of(
            completed(1, 0), completed(2, HOUR), completed(3, 2 * HOUR), completed(4, 3 * HOUR));

    assertThat(policy.toDelete(backups, 4 * HOUR)).containsExactly(1L, 2L);
  }

  @Test
  void shouldDeleteTheOldButNeverBelowTheMinimum() {
    RetentionPolicy policy =
        new RetentionPolicy(OptionalInt.empty(), Optional.of(Duration.ofHours(2)), 2);
    List<Candidate> backups = List.of(completed(1, 0), completed(2, HOUR), completed(3, 2 * HOUR));

    // everything is older than 2 h at 10 h, but two completed backups stay
    assertThat(policy.toDelete(backups, 10 * HOUR)).containsExactly(1L);
  }

  @Test
  void shouldDeleteUnrestorableBackupsOnlyOnceANewerOneCompleted() {
    RetentionPolicy policy = new RetentionPolicy(OptionalInt.of(5), Optional.empty(), 1);
    List<Candidate> backups =
        List.of(
            new Candidate(1, ClusterBackupStatusCode.FAILED, 0),
            completed(2, HOUR),
            new Candidate(3, ClusterBackupStatusCode.INCOMPLETE, 2 * HOUR),
            new Candidate(4, ClusterBackupStatusCode.IN_PROGRESS, 3 * HOUR));

    assertThat(policy.toDelete(backups, 4 * HOUR)).containsExactly(1L);
    assertThat(policy.toDelete(List.of(new Candidate(1, ClusterBackupStatusCode.FAILED, 0)), HOUR))
        .as("no completed backup: nothing is deleted")
        .isEmpty();
  }

  @Test
  void shouldRefuseSettingsThatCannotHold() {
    assertThatThrownBy(() -> new RetentionPolicy(OptionalInt.of(3), Optional.empty(), 0))
        .hasMessageContaining("minCount >= 1");
    assertThatThrownBy(() -> new RetentionPolicy(OptionalInt.of(1), Optional.empty(), 2))
        .hasMessageContaining("maxCount >= minCount (2), but was 1");
    assertThatThrownBy(() -> new RetentionPolicy(OptionalInt.empty(), Optional.empty(), 1))
        .hasMessageContaining("maxCount or maxAge");
  }

  /**
   * A cluster over time: backups taken on a schedule, some failing, some still running when
   * retention looks; retention deletes what it decides, but a crash may interrupt a deletion after
   * any of its ids (the rest is decided again next time). After every step: at least {@code
   * min(minCount, completed before)} completed backups remain, the newest completed one is never
   * deleted, nothing running is deleted, and every remaining completed backup beyond the minimum is
   * within the limits once retention ran without a crash.
   */
  @Test
  void shouldNeverGoBelowTheMinimumNorDeleteTheNewestRestorableBackup() {
    Random random = new Random(SEED);
    for (int trial = 0; trial < 300; trial++) {
      int minCount = 1 + random.nextInt(4);
      OptionalInt maxCount =
          random.nextBoolean() ? OptionalInt.of(minCount + random.nextInt(5)) : OptionalInt.empty();
      Optional<Duration> maxAge =
          maxCount.isEmpty() || random.nextBoolean()
              ? Optional.of(Duration.ofHours(1 + random.nextInt(48)))
              : Optional.empty();
      RetentionPolicy policy = new RetentionPolicy(maxCount, maxAge, minCount);
      TreeMap<Long, Candidate> store = new TreeMap<>();
      long now = 0;
      for (int step = 0; step < 80; step++) {
        now += HOUR / 2 + random.nextInt((int) (2 * HOUR));
        long id = now;
        ClusterBackupStatusCode state =
            random.nextInt(5) == 0
                ? ClusterBackupStatusCode.FAILED
                : random.nextInt(8) == 0
                    ? ClusterBackupStatusCode.IN_PROGRESS
                    : ClusterBackupStatusCode.COMPLETED;
        // a backup that was running last time has finished now
        store.replaceAll(
            (key, backup) ->
                backup.state() == ClusterBackupStatusCode.IN_PROGRESS
                    ? new Candidate(
                        key,
                        random.nextBoolean()
                            ? ClusterBackupStatusCode.COMPLETED
                            : ClusterBackupStatusCode.FAILED,
                        backup.createdMillis())
                    : backup);
        store.put(id, new Candidate(id, state, now));
        long newestCompleted =
            store.values().stream()
                .filter(RetentionPolicyTest::isCompleted)
                .mapToLong(Candidate::backupId)
                .max()
                .orElse(-1);
        int completedBefore =
            (int) store.values().stream().filter(RetentionPolicyTest::isCompleted).count();

        List<Long> decided = policy.toDelete(new ArrayList<>(store.values()), now);
        boolean crash = random.nextInt(4) == 0;
        int applied = crash ? random.nextInt(decided.size() + 1) : decided.size();
        for (Long victim : decided.subList(0, applied)) {
          Candidate removed = store.remove(victim);
          assertThat(removed).as("trial %d: deletes only what exists", trial).isNotNull();
          assertThat(removed.state())
              .as("trial %d (seed %d): a running backup is never deleted", trial, SEED)
              .isNotEqualTo(ClusterBackupStatusCode.IN_PROGRESS);
          assertThat(victim)
              .as("trial %d (seed %d): the newest restorable backup is kept", trial, SEED)
              .isNotEqualTo(newestCompleted);
        }
        int completedAfter =
            (int) store.values().stream().filter(RetentionPolicyTest::isCompleted).count();
        assertThat(completedAfter)
            .as("trial %d (seed %d), %s: completed backups left", trial, SEED, policy)
            .isGreaterThanOrEqualTo(Math.min(minCount, completedBefore));
        if (!crash) {
          assertWithinLimits(policy, store, now, trial);
        }
      }
    }
  }

  private static void assertWithinLimits(
      RetentionPolicy policy, TreeMap<Long, Candidate> store, long now, int trial) {
    List<Candidate> completed =
        store.descendingMap().values().stream().filter(RetentionPolicyTest::isCompleted).toList();
    for (int rank = policy.minCount(); rank < completed.size(); rank++) {
      Candidate backup = completed.get(rank);
      policy
          .maxCount()
          .ifPresent(
              max ->
                  assertThat(completed.size())
                      .as("trial %d (seed %d): completed backups after retention", trial, SEED)
                      .isLessThanOrEqualTo(max));
      policy
          .maxAge()
          .ifPresent(
              age ->
                  assertThat(now - backup.createdMillis())
                      .as(
                          "trial %d (seed %d): age of kept backup %d",
                          trial, SEED, backup.backupId())
                      .isLessThanOrEqualTo(age.toMillis()));
    }
  }

  private static boolean isCompleted(Candidate backup) {
    return backup.state() == ClusterBackupStatusCode.COMPLETED;
  }

  private static Candidate completed(long id, long createdMillis) {
    return new Candidate(id, ClusterBackupStatusCode.COMPLETED, createdMillis);
  }
}
