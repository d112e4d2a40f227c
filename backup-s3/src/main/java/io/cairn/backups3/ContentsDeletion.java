package io.cairn.backups3;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStoreException;
import io.cairn.backups3.client.S3Access;
import java.util.List;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Deletes a backup's contents: lists every object under its contents prefix (also strays of a
 * crashed save) and deletes them with {@code DeleteObjects}, at most {@value #BATCH_MAX} keys a
 * call. The caller deletes the manifest after it. Other backups never lose an object: each has its
 * own copies.
 */
final class ContentsDeletion {

  /** S3's limit of keys per DeleteObjects call. */
  static final int BATCH_MAX = 1000;

  private final S3Access s3;

  ContentsDeletion(S3Access s3) {
    this.s3 = s3;
  }

  /** Deletes every object of {@code id}'s contents; how many there were. */
  int run(BackupIdentifier id) {
    String prefix = s3.layout().contentsPrefix(id);
    int deleted = 0;
    String continuation = null;
    do {
      ListObjectsV2Response page = s3.list(prefix, BATCH_MAX, continuation, null);
      List<String> keys = page.contents().stream().map(S3Object::key).toList();
      if (!keys.isEmpty()) {
        deleteBatch(id, prefix, keys);
        deleted += keys.size();
      }
      continuation = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
    } while (continuation != null);
    return deleted;
  }

  private void deleteBatch(BackupIdentifier id, String prefix, List<String> keys) {
    List<S3Error> errors = s3.deleteAll(prefix, keys);
    if (!errors.isEmpty()) {
      S3Error first = errors.get(0);
      throw new BackupStoreException(
          "Expected to delete the "
              + keys.size()
              + " objects of backup "
              + id
              + " under "
              + s3.url(prefix)
              + ", but "
              + errors.size()
              + " were refused, e.g. "
              + s3.url(first.key())
              + ": "
              + first.code()
              + " "
              + first.message()
              + ". Delete the "
              + "backup again; its manifest was kept.");
    }
  }
}
