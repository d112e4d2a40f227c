package io.cairn.backupfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.Compression;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilesystemBackupStoreConfigTest {

  @TempDir Path dir;

  @Test
  void shouldUseDefaults() {
    var config = FilesystemBackupStoreConfig.of(dir);

    assertThat(config.compression()).isEqualTo(Compression.NONE);
    assertThat(config.compressionThresholdBytes()).isEqualTo(64 * 1024);
    assertThat(config.zstdLevel()).isEqualTo(3);
    assertThat(config.maxConcurrentFileCopies()).isEqualTo(2);
    assertThat(config.maxBytesPerSecond()).isZero();
  }

  @Test
  void shouldAcceptCopyConcurrencyAndRateWithinTheirRanges() {
    var config =
        FilesystemBackupStoreConfig.of(dir)
            .withMaxConcurrentFileCopies(16)
            .withMaxBytesPerSecond(64 * 1024)
            .withCompression(Compression.ZSTD, 10);

    assertThat(config.maxConcurrentFileCopies()).isEqualTo(16);
    assertThat(config.maxBytesPerSecond()).isEqualTo(64 * 1024);
    assertThat(config.compression()).isEqualTo(Compression.ZSTD);
    assertThat(config.withMaxBytesPerSecond(0).maxBytesPerSecond()).isZero();
    assertThat(config.withMaxBytesPerSecond(1L << 40).maxBytesPerSecond()).isEqualTo(1L << 40);
  }

  @Test
  void shouldRejectCopyConcurrencyAndRateOutOfRangeNamingTheKey() {
    var config = FilesystemBackupStoreConfig.of(dir);

    assertThatThrownBy(() -> config.withMaxConcurrentFileCopies(0))
        .hasMessage(
            "Expected maxConcurrentFileCopies to be a count in 1..16, but it is 0 "
                + "(backup store 'filesystem', key maxConcurrentFileCopies)");
    assertThatThrownBy(() -> config.withMaxConcurrentFileCopies(17))
        .hasMessageContaining("but it is 17");
    assertThatThrownBy(() -> config.withMaxBytesPerSecond(65_535))
        .hasMessage(
            "Expected maxBytesPerSecond to be 0 (no limit) or a rate in "
                + "65536..1099511627776 bytes/s, but it is 65535 (backup store 'filesystem', key "
                + "maxBytesPerSecond)");
    assertThatThrownBy(() -> config.withMaxBytesPerSecond(-1)).hasMessageContaining("it is -1");
    assertThatThrownBy(() -> config.withMaxBytesPerSecond((1L << 40) + 1))
        .hasMessageContaining("key maxBytesPerSecond");
  }

  @Test
  void shouldRejectInvalidValuesNamingTheKey() {
    assertThatThrownBy(() -> new FilesystemBackupStoreConfig(null, Compression.NONE, 0, 3))
        .hasMessage(
            "Expected basePath to be a directory path, but it is not set "
                + "(backup store 'filesystem', key basePath)");
    assertThatThrownBy(
            () -> FilesystemBackupStoreConfig.of(dir).withCompression(Compression.ZSTD, -1))
        .hasMessageContaining("Expected compressionThresholdBytes to be a size >= 0, but it is -1");
    assertThatThrownBy(() -> new FilesystemBackupStoreConfig(dir, Compression.ZSTD, 0, 20))
        .hasMessageContaining("zstdLevel to be a level in 1..19, but it is 20");
    assertThatThrownBy(() -> FilesystemBackupStoreConfig.parseCompression("gzip"))
        .hasMessageContaining("compression to be one of [none, zstd], but it is 'gzip'");
    assertThat(FilesystemBackupStoreConfig.parseCompression("zstd")).isEqualTo(Compression.ZSTD);
  }

  @Test
  void shouldRefuseToOpenOnAMissingBasePath() {
    Path missing = dir.resolve("nope");

    assertThatThrownBy(() -> open(missing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected basePath to be an existing writable directory")
        .hasMessageContaining("'" + missing + "' does not exist")
        .hasMessageContaining("key basePath");
  }

  @Test
  void shouldRefuseToOpenOnAFile() throws Exception {
    Path file = Files.writeString(dir.resolve("file"), "x");

    assertThatThrownBy(() -> open(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not a directory")
        .hasMessageContaining("key basePath");
  }

  private static void open(Path basePath) {
    FilesystemBackupStore.open(
            FilesystemBackupStoreConfig.of(basePath),
            Clock.system(),
            Runnable::run,
            Runnable::run,
            new SimpleMeterRegistry())
        .close();
  }
}
