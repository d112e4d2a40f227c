package io.cairn.backups3;

import io.cairn.backups3.testserver.LocalS3Servers;

/** The backup store contract on Adobe S3Mock, with conditional writes. */
class S3MockBackupStoreTest extends S3BackupStoreContractTest {

  @Override
  protected LocalS3Servers.Kind kind() {
    return LocalS3Servers.Kind.S3MOCK;
  }
}
