package io.cairn.backup.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backup.BackupOutcome;
import io.cairn.backup.Checkpoint;
import io.cairn.db.Digest128;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A backup job's table, and the sweep's retry delays. */
final class BackupJobTest {

  @Test
  void shouldGoThroughItsStatesOnceAndLetOnlyTheFirstFinisherEndIt() {
    // given
    BackupJob job = job(7);

    // when it is taken over, uploads and ends
    assertThat(job.transition(new BackupJob.State.Waiting(), "test")).isTrue();
    assertThat(job.transition(new BackupJob.State.Uploading(42), "test")).isTrue();
    assertThat(job.uploadStartNanos()).isEqualTo(42);
    BackupOutcome first = BackupOutcome.alreadyCompleted(7);
    assertThat(job.transition(new BackupJob.State.Finished(first), "test")).isTrue();

    // then a second end does nothing
    assertThat(job.transition(new BackupJob.State.Finished(BackupOutcome.failed(7, "x")), "test"))
        .isFalse();
    assertThat(job.state()).isEqualTo(new BackupJob.State.Finished(first));
  }

  @Test
  void shouldRefuseAMoveThatIsNotInTheTable() {
    BackupJob job = job(8);

    assertThatThrownBy(() -> job.transition(new BackupJob.State.Uploading(1), "test"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Expected a move in the backup job table, but")
        .hasMessageContaining("backup 8");
    assertThatThrownBy(job::uploadStartNanos).isInstanceOf(IllegalStateException.class);
    assertThat(job.state()).isEqualTo(new BackupJob.State.Submitted());
  }

  @Test
  void shouldDoubleTheSweepRetryDelayUpToItsMax() {
    assertThat(InProgressSweep.retryDelay(1)).isEqualTo(InProgressSweep.RETRY_DELAY_MIN);
    assertThat(InProgressSweep.retryDelay(2))
        .isEqualTo(InProgressSweep.RETRY_DELAY_MIN.multipliedBy(2));
    assertThat(InProgressSweep.retryDelay(3))
        .isEqualTo(InProgressSweep.RETRY_DELAY_MIN.multipliedBy(4));
    for (int failed : new int[] {7, 8, 40, Integer.MAX_VALUE}) {
      assertThat(InProgressSweep.retryDelay(failed))
          .isEqualTo(InProgressSweep.RETRY_DELAY_MAX)
          .isLessThan(Duration.ofMinutes(1));
    }
  }

  private static BackupJob job(long id) {
    return new BackupJob(
        new Checkpoint(id, 10, 1_700_000_000_000L, new Digest128(id, 10)),
        new BackupJob.Reservation.Unavailable("no snapshot"),
        0);
  }
}
