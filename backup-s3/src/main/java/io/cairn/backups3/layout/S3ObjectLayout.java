package io.cairn.backups3.layout;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.ObjectNames;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the S3 store keeps things in its bucket, under {@code basePath}:
 *
 * <pre>
 * {basePath}/manifests/{partition:10}/{checkpoint:19}/{node:10}.json
 * {basePath}/contents/{partition:10}/{checkpoint:19}/{node:10}/snapshot/{name}
 * {basePath}/contents/{partition:10}/{checkpoint:19}/{node:10}/segments/{name}
 * {basePath}/archive/{key}           (the log archive's objects)
 * {basePath}/.cairn/probe-{token}     (for a moment at start: read/write and condition probes)
 * </pre>
 *
 * Ids are zero-padded decimals (10 digits for ints, 19 for the checkpoint id), so S3's
 * lexicographic key order is the listing order: partition, checkpoint id, node. Listing one
 * partition, one checkpoint id, or the ids with a decimal prefix are then key-range scans of the
 * manifests prefix, which holds one small object per backup and never the contents. Content objects
 * are written once and never changed.
 */
public final class S3ObjectLayout {

  public static final String MANIFESTS = "manifests/";
  public static final String CONTENTS = "contents/";
  public static final String ARCHIVE = "archive/";
  public static final String MANIFEST_SUFFIX = ".json";
  static final int INT_DIGITS = 10;
  static final int LONG_DIGITS = 19;

  private static final Pattern MANIFEST =
      Pattern.compile(
          "([0-9]{"
              + INT_DIGITS
              + "})/([0-9]{"
              + LONG_DIGITS
              + "})/([0-9]{"
              + INT_DIGITS
              + "})"
              + Pattern.quote(MANIFEST_SUFFIX));

  private final String bucket;
  private final String root;

  /**
   * @param basePath validated key prefix without leading or trailing '/', or ""
   */
  public S3ObjectLayout(String bucket, String basePath) {
    this.bucket = bucket;
    this.root = basePath.isEmpty() ? "" : basePath + "/";
  }

  public String bucket() {
    return bucket;
  }

  /** Every manifest key starts with this. */
  public String manifestsPrefix() {
    return root + MANIFESTS;
  }

  /** Every manifest key of one partition starts with this. */
  public String manifestsPrefix(int partitionId) {
    return manifestsPrefix() + pad(partitionId, INT_DIGITS) + "/";
  }

  public String manifestKey(BackupIdentifier id) {
    return seekKey(id) + MANIFEST_SUFFIX;
  }

  /**
   * A key that sorts immediately before {@link #manifestKey}: no object has it, so listing {@code
   * StartAfter} it starts at that manifest.
   */
  public String seekKey(BackupIdentifier id) {
    return manifestsPrefix(id.partitionId())
        + pad(id.checkpointId(), LONG_DIGITS)
        + "/"
        + pad(id.nodeId(), INT_DIGITS);
  }

  /** The identifier of a manifest key, or empty for any other key. */
  public Optional<BackupIdentifier> parseManifestKey(String key) {
    if (!key.startsWith(manifestsPrefix())) {
      return Optional.empty();
    }
    Matcher m = MANIFEST.matcher(key.substring(manifestsPrefix().length()));
    if (!m.matches()) {
      return Optional.empty();
    }
    try {
      long partition = Long.parseLong(m.group(1));
      long checkpoint = Long.parseLong(m.group(2));
      long node = Long.parseLong(m.group(3));
      if (partition < 1
          || partition > Integer.MAX_VALUE
          || checkpoint < 1
          || node > Integer.MAX_VALUE) {
        return Optional.empty();
      }
      return Optional.of(new BackupIdentifier((int) node, (int) partition, checkpoint));
    } catch (NumberFormatException e) {
      return Optional.empty(); // 19 nines: beyond Long.MAX_VALUE, not a key this store made
    }
  }

  /** Every content object of one backup starts with this (and nothing of another backup). */
  public String contentsPrefix(BackupIdentifier id) {
    return root
        + CONTENTS
        + pad(id.partitionId(), INT_DIGITS)
        + "/"
        + pad(id.checkpointId(), LONG_DIGITS)
        + "/"
        + pad(id.nodeId(), INT_DIGITS)
        + "/";
  }

  /** The stored object of one file; {@code name} must follow {@link ObjectNames}. */
  public String objectKey(BackupIdentifier id, FileSetKind kind, String name) {
    ObjectNames.requireValid(name, "object of " + id);
    return contentsPrefix(id) + kind.directoryName() + "/" + name;
  }

  /** The object of a log archive key; {@code key} must follow {@link ObjectNames}. */
  public String archiveKey(String key) {
    return root + ARCHIVE + key;
  }

  /** A short-lived object written at start to learn whether the server honours conditions. */
  public String probeKey(String token) {
    return root + ".cairn/probe-" + token;
  }

  /** {@code s3://bucket/key}, for messages. */
  public String url(String key) {
    return "s3://" + bucket + "/" + key;
  }

  static String pad(long value, int digits) {
    String text = Long.toString(value);
    return "0".repeat(Math.max(0, digits - text.length())) + text;
  }
}
