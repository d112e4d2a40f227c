package io.cairn.backups3;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStoreException;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.PageRequest;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3Calls;
import io.cairn.backups3.layout.S3ObjectLayout;
import io.cairn.backups3.layout.WildcardSeek;
import io.cairn.backups3.manifest.ManifestObjects;
import io.cairn.backupstore.PageTokens;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * One page of a listing: a paged {@code ListObjectsV2} scan of the manifest keys (never the
 * contents), narrowed to one partition's prefix when the wildcard names it, that starts at the
 * first identifier the wildcard can match and jumps over keys it cannot ({@link WildcardSeek}):
 * within a page it follows S3's continuation token; when the next possible match lies beyond the
 * page it restarts the scan there with {@code StartAfter}. Then only the page's manifests are read.
 * The cost grows with the number of backups scanned, never with their files.
 *
 * <p>Page tokens are {@code s3v1:<partition>:<checkpoint>:<node>} of the last identifier returned;
 * the next page starts strictly after it, so backups added or deleted between pages do not shift
 * the rest.
 */
final class ListOperation {

  private static final Logger LOG = LoggerFactory.getLogger(ListOperation.class);
  private static final PageTokens PAGE_TOKENS = new PageTokens("s3v1:");
  private static final int MANIFEST_READS_IN_FLIGHT = 16;
  private static final int MIN_KEYS_PER_REQUEST = 32;

  /** A scan that needs more requests than this for one page is a bug or a hostile bucket. */
  private static final int REQUESTS_PER_PAGE_MAX = 100_000;

  private final S3Access s3;
  private final S3ObjectLayout layout;
  private final ManifestObjects manifests;

  ListOperation(S3Access s3, ManifestObjects manifests) {
    this.s3 = s3;
    this.layout = s3.layout();
    this.manifests = manifests;
  }

  BackupPage run(BackupIdentifierWildcard wildcard, PageRequest page) {
    Optional<BackupIdentifier> after = page.token().map(PAGE_TOKENS::parse);
    var seek = new WildcardSeek(wildcard);
    Optional<BackupIdentifier> candidate =
        after.isPresent()
            ? WildcardSeek.successor(after.get()).flatMap(seek::atOrAfter)
            : seek.atOrAfter(WildcardSeek.first());
    String prefix =
        wildcard.partitionId().map(layout::manifestsPrefix).orElse(layout.manifestsPrefix());
    int maxKeys = Math.min(1000, Math.max(MIN_KEYS_PER_REQUEST, page.size() + 1));

    List<BackupIdentifier> matches = new ArrayList<>();
    Map<BackupIdentifier, Instant> modified = new HashMap<>();
    boolean more = false;
    String continuation = null;
    int requests = 0;
    scan:
    while (candidate.isPresent()) {
      if (++requests > REQUESTS_PER_PAGE_MAX) {
        throw new BackupStoreException(
            "Expected a listing page within "
                + REQUESTS_PER_PAGE_MAX
                + " requests, but "
                + s3.url(prefix)
                + " did not end (list "
                + wildcard
                + ")");
      }
      ListObjectsV2Response response =
          s3.list(
              prefix,
              maxKeys,
              continuation,
              continuation == null ? layout.seekKey(candidate.get()) : null);
      for (S3Object object : response.contents()) {
        Optional<BackupIdentifier> id = layout.parseManifestKey(object.key());
        if (id.isEmpty() || candidate.isEmpty() || id.get().compareTo(candidate.get()) < 0) {
          continue;
        }
        if (wildcard.matches(id.get())) {
          if (matches.size() == page.size()) {
            more = true;
            break scan;
          }
          matches.add(id.get());
          // ListObjectsV2 always reports LastModified; the epoch only guards a server that omits it
          modified.put(id.get(), Optional.ofNullable(object.lastModified()).orElse(Instant.EPOCH));
          candidate = WildcardSeek.successor(id.get()).flatMap(seek::atOrAfter);
        } else {
          candidate = seek.atOrAfter(id.get());
        }
      }
      if (!Boolean.TRUE.equals(response.isTruncated())
          || response.contents().isEmpty()
          || candidate.isEmpty()) {
        break;
      }
      String lastKey = response.contents().get(response.contents().size() - 1).key();
      boolean jump = layout.seekKey(candidate.get()).compareTo(lastKey) > 0;
      continuation = jump ? null : response.nextContinuationToken();
    }
    List<BackupStatus> statuses = readStatuses(matches, modified);
    Optional<String> next =
        more && !matches.isEmpty()
            ? Optional.of(PAGE_TOKENS.token(matches.get(matches.size() - 1)))
            : Optional.empty();
    return new BackupPage(statuses, next);
  }

  /**
   * Reads the page's manifests, a few at a time; one deleted since it was listed is left out. A
   * manifest that cannot be trusted does not fail the page: its backup is listed as FAILED naming
   * the manifest and the problem, with the object's last-modified time.
   */
  private List<BackupStatus> readStatuses(
      List<BackupIdentifier> ids, Map<BackupIdentifier, Instant> modified) {
    List<BackupStatus> statuses = new ArrayList<>(ids.size());
    for (int from = 0; from < ids.size(); from += MANIFEST_READS_IN_FLIGHT) {
      List<CompletableFuture<Optional<ManifestObjects.Stored>>> reads = new ArrayList<>();
      for (BackupIdentifier id :
          ids.subList(from, Math.min(ids.size(), from + MANIFEST_READS_IN_FLIGHT))) {
        reads.add(manifests.readAsync(id));
      }
      for (int i = 0; i < reads.size(); i++) {
        BackupIdentifier id = ids.get(from + i);
        try {
          S3Calls.await(reads.get(i), "reading a listed manifest")
              .ifPresent(stored -> statuses.add(stored.manifest().toStatus()));
        } catch (ManifestException e) {
          LOG.warn(
              "Listing backup {} as FAILED: its manifest cannot be trusted: {}",
              id,
              e.getMessage());
          statuses.add(BackupStatus.unreadableManifest(id, e, modified.get(id)));
        }
      }
    }
    return statuses;
  }
}
