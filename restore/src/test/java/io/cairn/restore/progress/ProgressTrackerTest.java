package io.cairn.restore.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.RestoreProgress;
import io.cairn.restore.PartitionProgress;
import io.cairn.restore.RestoreListener;
import io.cairn.restore.RestorePhase;
import io.cairn.scheduler.SimClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ProgressTrackerTest {

  private static final long MIB = 1024 * 1024;

  @Test
  void shouldReportRateAndEtaEveryIntervalAndAtEveryPhase() {
    SimClock clock = new SimClock(0);
    List<PartitionProgress> events = new ArrayList<>();
    RestoreListener listener =
        new RestoreListener() {
          @Override
          public void onProgress(PartitionProgress progress) {
            events.add(progress);
          }
        };
    ProgressTracker tracker = new ProgressTracker(3, 100 * MIB, 4, 10 * MIB, clock, listener);

    tracker.phase(RestorePhase.DOWNLOADING);
    clock.advance(Duration.ofSeconds(1));
    tracker.onProgress(progress(5 * MIB, 0)); // below the interval: not reported
    clock.advance(Duration.ofSeconds(1));
    tracker.onProgress(progress(20 * MIB, 1)); // 20 MiB in 2 s
    clock.advance(Duration.ofSeconds(8));
    tracker.onProgress(progress(100 * MIB, 4)); // the end: always reported
    tracker.phase(RestorePhase.INSTALLING);
    tracker.phase(RestorePhase.DONE);

    assertThat(events)
        .extracting(PartitionProgress::phase)
        .containsExactly(
            RestorePhase.DOWNLOADING,
            RestorePhase.DOWNLOADING,
            RestorePhase.DOWNLOADING,
            RestorePhase.INSTALLING,
            RestorePhase.DONE);
    assertThat(events.get(0).eta()).isEmpty();
    PartitionProgress middle = events.get(1);
    assertThat(middle.partitionId()).isEqualTo(3);
    assertThat(middle.bytesDone()).isEqualTo(20 * MIB);
    assertThat(middle.bytesPerSecond()).isEqualTo(10 * MIB);
    assertThat(middle.eta()).hasValue(Duration.ofSeconds(8));
    assertThat(middle.filesDone()).isEqualTo(1);
    assertThat(middle.describe())
        .isEqualTo("partition 3 DOWNLOADING 20% 20.0 MiB/100.0 MiB 10.0 MiB/s ETA 8s");
    PartitionProgress end = events.get(2);
    assertThat(end.fraction()).isEqualTo(1.0);
    assertThat(end.eta()).hasValue(Duration.ZERO);
    assertThat(end.elapsed()).isEqualTo(Duration.ofSeconds(10));
  }

  private static RestoreProgress progress(long bytes, int files) {
    return new RestoreProgress(
        FileSetKind.SEGMENTS, "raft-partition-3-1.log", bytes, bytes, bytes, 100 * MIB, files, 4);
  }
}
