package io.cairn.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cairn.cli.output.OutputFormat;
import io.cairn.cli.output.Printer;
import io.cairn.restore.PartitionProgress;
import io.cairn.restore.RestorePhase;
import io.cairn.scheduler.SimClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Progress lines on stderr: every phase change, at most one a second while downloading. */
class RestoreProgressReporterTest {
  private final SimClock clock = new SimClock(0);
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private RestoreProgressReporter reporter(OutputFormat format) {
    return new RestoreProgressReporter(
        new Printer(
            format,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)),
        clock,
        "restore");
  }

  private static PartitionProgress progress(
      int partition, RestorePhase phase, long done, Optional<Duration> eta) {
    long total = 20L * 1024 * 1024;
    return new PartitionProgress(
        partition,
        phase,
        done,
        total,
        done == total ? 2 : 0,
        2,
        4L * 1024 * 1024,
        eta,
        Duration.ofSeconds(1));
  }

  private List<String> lines() {
    return err.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void shouldPrintEveryPhaseChangeAndAtMostOneDownloadLineASecondPerPartition() {
    RestoreProgressReporter reporter = reporter(OutputFormat.TABLE);
    long mib = 1024 * 1024;
    reporter.onProgress(progress(1, RestorePhase.DOWNLOADING, 0, Optional.empty()));
    reporter.onProgress(progress(2, RestorePhase.DOWNLOADING, 0, Optional.empty()));
    clock.advance(Duration.ofMillis(400));
    reporter.onProgress(
        progress(1, RestorePhase.DOWNLOADING, 4 * mib, Optional.of(Duration.ofSeconds(4))));
    clock.advance(Duration.ofMillis(700));
    reporter.onProgress(
        progress(1, RestorePhase.DOWNLOADING, 8 * mib, Optional.of(Duration.ofSeconds(3))));
    reporter.onProgress(progress(1, RestorePhase.INSTALLING, 20 * mib, Optional.of(Duration.ZERO)));
    reporter.onProgress(progress(1, RestorePhase.DONE, 20 * mib, Optional.of(Duration.ZERO)));

    assertThat(lines())
        .containsExactly(
            "restore: partition 1 DOWNLOADING 0% 0.0 MiB/20.0 MiB 4.0 MiB/s",
            "restore: partition 2 DOWNLOADING 0% 0.0 MiB/20.0 MiB 4.0 MiB/s",
            "restore: partition 1 DOWNLOADING 40% 8.0 MiB/20.0 MiB 4.0 MiB/s ETA 3s",
            "restore: partition 1 INSTALLING 100% 20.0 MiB/20.0 MiB 4.0 MiB/s ETA 0s",
            "restore: partition 1 DONE 100% 20.0 MiB/20.0 MiB 4.0 MiB/s ETA 0s");
    assertThat(out.size()).isZero();
  }

  @Test
  void shouldWriteOneCompactJsonEventPerLineWithJsonOutput() throws Exception {
    RestoreProgressReporter reporter = reporter(OutputFormat.JSON);
    reporter.onProgress(progress(3, RestorePhase.DOWNLOADING, 0, Optional.empty()));
    reporter.onProgress(
        progress(3, RestorePhase.INSTALLING, 20L * 1024 * 1024, Optional.of(Duration.ZERO)));

    assertThat(lines()).hasSize(2).allMatch(line -> line.startsWith("{\"event\":\"progress\""));
    JsonNode first = Printer.mapper().readTree(lines().get(0));
    assertThat(first.path("partitionId").asInt()).isEqualTo(3);
    assertThat(first.path("phase").asText()).isEqualTo("DOWNLOADING");
    assertThat(first.path("etaMs").isNull()).isTrue();
    assertThat(first.path("bytesTotal").asLong()).isEqualTo(20L * 1024 * 1024);
    JsonNode second = Printer.mapper().readTree(lines().get(1));
    assertThat(second.path("bytesDone").asLong()).isEqualTo(second.path("bytesTotal").asLong());
    assertThat(second.path("etaMs").asLong()).isZero();
    assertThat(second.path("bytesPerSecond").asLong()).isEqualTo(4L * 1024 * 1024);
    assertThat(out.size()).isZero();
  }
}
