package io.cairn.backups3;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupInProgressException;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStoreException;
import io.cairn.backupapi.ManifestException;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.manifest.ManifestObjects;
import io.cairn.backupstore.SavesInFlight;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Deletes a backup: refuses one that is IN_PROGRESS or whose save runs in this store; otherwise
 * lists every object under the backup's contents prefix (also strays of a crashed save) and deletes
 * them with {@code DeleteObjects}, at most {@value #BATCH_MAX} keys a call, then the manifest last
 * — so an interrupted delete leaves a manifest to find and delete again, never orphaned contents.
 * Other backups never lose an object: each has its own copies.
 */
final class DeleteOperation {

  private static final Logger LOG = LoggerFactory.getLogger(DeleteOperation.class);

  /** S3's limit of keys per DeleteObjects call. */
  static final int BATCH_MAX = 1000;

  private final S3Access s3;
  private final ManifestObjects manifests;
  private final SavesInFlight savesInFlight;

  DeleteOperation(S3Access s3, ManifestObjects manifests, SavesInFlight savesInFlight) {
    this.s3 = s3;
    this.manifests = manifests;
    this.savesInFlight = savesInFlight;
  }

  void run(BackupIdentifier id) {
    savesInFlight.checkNotSaving(id);
    Optional<ManifestObjects.Stored> current;
    try {
      current = manifests.read(id);
    } catch (ManifestException e) {
      LOG.warn("Deleting backup {} whose manifest cannot be trusted: {}", id, e.getMessage());
      current = Optional.empty();
    }
    if (current.isPresent() && current.get().manifest().status() == BackupStatusCode.IN_PROGRESS) {
      throw new BackupInProgressException(id, "its manifest is IN_PROGRESS");
    }
    int deleted = deleteContents(id);
    manifests.delete(id);
    LOG.info("Deleted backup {} ({} objects)", id, deleted);
  }

  private int deleteContents(BackupIdentifier id) {
    String prefix = s3.layout().contentsPrefix(id);
    int deleted = 0;
    String continuation = null;
    do {
      String token = continuation;
      ListObjectsV2Response page =
          s3.calls()
              .join(
                  "ListObjectsV2",
                  s3.url(prefix),
                  () ->
                      s3.client()
                          .listObjectsV2(
                              ListObjectsV2Request.builder()
                                  .bucket(s3.bucket())
                                  .prefix(prefix)
                                  .maxKeys(BATCH_MAX)
                                  .continuationToken(token)
                                  .build()));
      List<ObjectIdentifier> keys = new ArrayList<>();
      for (S3Object object : page.contents()) {
        keys.add(ObjectIdentifier.builder().key(object.key()).build());
      }
      if (!keys.isEmpty()) {
        deleteBatch(id, prefix, keys);
        deleted += keys.size();
      }
      continuation = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
    } while (continuation != null);
    return deleted;
  }

  private void deleteBatch(BackupIdentifier id, String prefix, List<ObjectIdentifier> keys) {
    DeleteObjectsResponse response =
        s3.calls()
            .join(
                "DeleteObjects",
                s3.url(prefix),
                () ->
                    s3.client()
                        .deleteObjects(
                            DeleteObjectsRequest.builder()
                                .bucket(s3.bucket())
                                .delete(Delete.builder().objects(keys).quiet(true).build())
                                .build()));
    List<S3Error> errors =
        response.errors().stream().filter(e -> !"NoSuchKey".equals(e.code())).toList();
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
