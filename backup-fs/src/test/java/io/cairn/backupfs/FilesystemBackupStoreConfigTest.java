package io.cairn.backupfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.Compression;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
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
  }

  @Test
  void shouldRejectInvalidValuesNamingTheKey() {
    assertThatThrownBy(() -> new FilesystemBackupStoreConfig(null, Compression.NONE, 0, 3))
        .hasMessage("Expected basePath to be a directory path, but it is not set "
            + "(backup store 'filesystem', key basePath)");
    assertThatThrownBy(() -> FilesystemBackupStoreConfig.of(dir).withCompression(
        Compression.ZSTD, -1))
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
    FilesystemBackupStore.open(FilesystemBackupStoreConfig.of(basePath), InstantSource.system(),
        Runnable::run, new SimpleMeterRegistry()).close();
  }
}
