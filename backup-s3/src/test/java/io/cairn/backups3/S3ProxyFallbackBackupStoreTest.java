package io.cairn.backups3;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backups3.testserver.LocalS3Servers;
import org.junit.jupiter.api.Test;

/**
 * The backup store contract on S3Proxy with conditional writes switched off: manifest changes are
 * read-check-write under the store's per-backup lock, as on a server without conditions.
 */
class S3ProxyFallbackBackupStoreTest extends S3BackupStoreContractTest {

  @Override
  protected LocalS3Servers.Kind kind() {
    return LocalS3Servers.Kind.S3PROXY;
  }

  @Override
  protected S3BackupStoreConfig.Builder adjust(S3BackupStoreConfig.Builder config) {
    return config.conditionalWrites(ConditionalWrites.DISABLED);
  }

  @Test
  void shouldRunWithoutConditionalWrites() {
    assertThat(((S3BackupStore) store).usesConditionalWrites()).isFalse();
  }
}
