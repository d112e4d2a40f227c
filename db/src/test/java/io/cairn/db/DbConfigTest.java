package io.cairn.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class DbConfigTest {

  @Test
  void shouldUseDocumentedDefaults() {
    DbConfig config = DbConfig.defaults();

    assertThat(config.writeBufferSizeBytes()).isEqualTo(16L * 1024 * 1024);
    assertThat(config.blockCacheSizeBytes()).isEqualTo(32L * 1024 * 1024);
    assertThat(config.maxBackgroundJobs()).isEqualTo(2);
    assertThat(config.walEnabled()).isFalse();
    assertThat(config.digestMaintained()).isTrue();
    assertThat(config.toBuilder().build().toString()).isEqualTo(config.toString());
  }

  @Test
  void shouldListEveryViolation() {
    assertThatThrownBy(
            () ->
                DbConfig.builder()
                    .writeBufferSizeBytes(10)
                    .blockCacheSizeBytes(-1)
                    .maxBackgroundJobs(0)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected writeBufferSizeBytes in [65536, 1073741824], but was 10")
        .hasMessageContaining("Expected blockCacheSizeBytes in [65536, 68719476736], but was -1")
        .hasMessageContaining("Expected maxBackgroundJobs in [1, 64], but was 0");
  }

  @Test
  void shouldRejectReservedOrMalformedFamilyNames() {
    assertThatThrownBy(() -> ColumnFamilyDefinition.digested("_cairn_digest"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reserved");
    assertThatThrownBy(() -> ColumnFamilyDefinition.excluded("default"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ColumnFamilyDefinition.digested("has space"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was 'has space'");
    assertThat(ColumnFamilyDefinition.digested("accounts.v1").includedInDigest()).isTrue();
  }
}
