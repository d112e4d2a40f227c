package io.cairn.benchmarks.hotpath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class HotPathSettingsTest {

  @Test
  void shouldUseTheDocumentedDefaultsWithoutArguments() {
    HotPathSettings settings = HotPathSettings.parse();

    assertThat(settings.stepDuration()).isEqualTo(Duration.ofSeconds(20));
    assertThat(settings.warmup()).isEqualTo(Duration.ofSeconds(10));
    assertThat(settings.jitWarmup()).isEqualTo(Duration.ofSeconds(30));
    assertThat(settings.concurrency()).containsExactly(1, 16, 64, 256);
    assertThat(settings.accounts()).isEqualTo(1000);
    assertThat(settings.etcd()).isEqualTo(HotPathSettings.EtcdMode.AUTO);
    assertThat(settings.out()).isEqualTo(Path.of("results"));
    assertThat(settings.hotBackupMegabytes()).isZero();
    assertThat(settings.backups()).isEqualTo(5);
  }

  @Test
  void shouldAcceptSpaceAndEqualsForms() {
    HotPathSettings settings =
        HotPathSettings.parse(
            "--step-duration",
            "3s",
            "--warmup=500ms",
            "--jit-warmup",
            "0s",
            "--concurrency",
            "1,16",
            "--etcd",
            "OFF",
            "--hot-backup-mb=1000",
            "--out",
            "/tmp/r");

    assertThat(settings.stepDuration()).isEqualTo(Duration.ofSeconds(3));
    assertThat(settings.warmup()).isEqualTo(Duration.ofMillis(500));
    assertThat(settings.jitWarmup()).isZero();
    assertThat(settings.concurrency()).containsExactly(1, 16);
    assertThat(settings.etcd()).isEqualTo(HotPathSettings.EtcdMode.OFF);
    assertThat(settings.hotBackupMegabytes()).isEqualTo(1000);
    assertThat(settings.out()).isEqualTo(Path.of("/tmp/r"));
  }

  @Test
  void shouldListEveryViolationWithNameValueAndRange() {
    assertThatThrownBy(
            () ->
                HotPathSettings.parse(
                    "--step-duration",
                    "0s",
                    "--warmup",
                    "soon",
                    "--concurrency",
                    "1,0,5000",
                    "--accounts",
                    "3",
                    "--etcd",
                    "maybe",
                    "--hot-backup-mb",
                    "-1",
                    "--backups",
                    "x",
                    "--jit-warmup",
                    "11m"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected --step-duration in [1.0s, 10m00s], but was 0s")
        .hasMessageContaining(
            "Expected --warmup to be a duration like 500ms, 20s, 5m, but was" + " 'soon'")
        .hasMessageContaining("Expected --concurrency in [1, 4096], but was 0")
        .hasMessageContaining("Expected --accounts in [6, 1000000], but was 3")
        .hasMessageContaining("Expected --etcd to be one of on, off, auto, but was 'maybe'")
        .hasMessageContaining(
            "Expected --hot-backup-mb to be 0 (off) or in [1, 100000], but" + " was -1")
        .hasMessageContaining("Expected --backups to be an integer in [1, 100], but was 'x'")
        .hasMessageContaining("Expected --jit-warmup in [0ms, 10m00s], but was 11m");
  }

  @Test
  void shouldRejectConcurrencyThatIsNotAscending() {
    assertThatThrownBy(() -> HotPathSettings.parse("--concurrency", "16,1"))
        .hasMessage("Expected --concurrency to be ascending without repeats, but was '16,1'");
  }

  @Test
  void shouldRejectUnknownOptionsAndMissingValues() {
    assertThatThrownBy(() -> HotPathSettings.parse("--rate", "5", "stray", "--accounts"))
        .hasMessageContaining("but was '--rate'")
        .hasMessageContaining("Expected an option --name, but was 'stray'")
        .hasMessageContaining("Expected a value after --accounts, but it is the last argument");
  }

  @Test
  void shouldReportTheSettingsItRan() {
    assertThat(HotPathSettings.parse("--concurrency", "4,8").document())
        .containsEntry("concurrency", List.of(4, 8))
        .containsEntry("etcd", "auto")
        .containsEntry("stepDuration", "20.0s");
  }
}
