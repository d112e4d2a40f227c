package io.cairn.backupapi.archive;

/**
 * Where the archive keeps a partition's objects under the store's archive root:
 *
 * <pre>
 * partition-{partition}/links/{fromIndex:19}                        one link of the chain
 * partition-{partition}/chunks/{fromIndex:19}-{toIndex:19}-{node}   the records of one link
 * partition-{partition}/points/{checkpointId:19}                    one restore point
 * </pre>
 *
 * Indexes are zero-padded, so key order is index order: the chain from any index on is one listing
 * of the links directory starting after a key, never a listing of the chunks.
 *
 * <p>A listing may show keys that are none of these: a server that writes an upload to a temporary
 * object beside its key lists it while the upload runs (S3Proxy's filesystem store names it {@code
 * {key}-{uuid}}), and people put files where they should not. {@link #isLink} and {@link #isPoint}
 * tell the archive's own keys apart, so readers skip the rest.
 */
public final class ArchiveKeys {

  private static final String INDEX_FORMAT = "%019d";

  /** The largest number a key can name: {@link Long#MAX_VALUE}, in its 19 digits. */
  private static final String MAX_INDEX_DIGITS = Long.toString(Long.MAX_VALUE);

  private ArchiveKeys() {}

  /** The directory of a partition's links, for {@link ArchiveObjects#list}. */
  public static String linksDirectory(int partitionId) {
    return "partition-" + partitionId + "/links/";
  }

  /** The key of the link whose chunk starts at {@code fromIndex}. */
  public static String link(int partitionId, long fromIndex) {
    return linksDirectory(partitionId) + String.format(INDEX_FORMAT, fromIndex);
  }

  /** The directory of a partition's restore points, for {@link ArchiveObjects#list}. */
  public static String pointsDirectory(int partitionId) {
    return "partition-" + partitionId + "/points/";
  }

  /** The key of restore point {@code checkpointId}. */
  public static String point(int partitionId, long checkpointId) {
    return pointsDirectory(partitionId) + String.format(INDEX_FORMAT, checkpointId);
  }

  /** Whether {@code key} is a restore point key of the partition. */
  public static boolean isPoint(int partitionId, String key) {
    return digitsAfter(pointsDirectory(partitionId), key) != null;
  }

  /** Whether {@code key} is a link key of the partition. */
  public static boolean isLink(int partitionId, String key) {
    return digitsAfter(linksDirectory(partitionId), key) != null;
  }

  /**
   * The checkpoint id a restore point key names.
   *
   * @throws ArchiveException if {@code key} is not a restore point key of the partition
   */
  public static long checkpointIdOf(int partitionId, String key) {
    return numberAfter(pointsDirectory(partitionId), partitionId, key, "restore point");
  }

  /** The key of a chunk; the node makes it unique to its writer. */
  public static String chunk(int partitionId, long fromIndex, long toIndex, int nodeId) {
    return "partition-"
        + partitionId
        + "/chunks/"
        + String.format(INDEX_FORMAT, fromIndex)
        + "-"
        + String.format(INDEX_FORMAT, toIndex)
        + "-"
        + nodeId;
  }

  /**
   * The {@code fromIndex} a link key names.
   *
   * @throws ArchiveException if {@code key} is not a link key of the partition
   */
  public static long fromIndexOf(int partitionId, String key) {
    return numberAfter(linksDirectory(partitionId), partitionId, key, "link");
  }

  /** The 19 digits after {@code directory} that make up {@code key}, or null if it has none. */
  private static String digitsAfter(String directory, String key) {
    String digits = key.startsWith(directory) ? key.substring(directory.length()) : "";
    boolean valid =
        digits.length() == 19
            && digits.chars().allMatch(c -> c >= '0' && c <= '9')
            && digits.compareTo(MAX_INDEX_DIGITS) <= 0;
    return valid ? digits : null;
  }

  private static long numberAfter(String directory, int partitionId, String key, String kind) {
    String digits = digitsAfter(directory, key);
    if (digits == null) {
      throw new ArchiveException(
          "Expected a "
              + kind
              + " key of partition "
              + partitionId
              + " ("
              + directory
              + " and 19 digits up to "
              + MAX_INDEX_DIGITS
              + "), but found '"
              + key
              + "' in the archive");
    }
    return Long.parseLong(digits);
  }
}
