package io.cairn.backups3;

import io.cairn.backups3.testserver.LocalS3Servers;

/** The backup store contract on S3Proxy (filesystem backend), with conditional writes. */
class S3ProxyBackupStoreTest extends S3BackupStoreContractTest {

  @Override
  protected LocalS3Servers.Kind kind() {
    return LocalS3Servers.Kind.S3PROXY;
  }
}
