package io.cairn.snapshot.store;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Where a store keeps things, and the names inside a snapshot.
 *
 * <pre>
 * &lt;root&gt;/
 *   snapshots/                        committed snapshots, one directory each
 *     &lt;index&gt;-&lt;term&gt;-&lt;processedPosition&gt;-&lt;lastWrittenPosition&gt;/
 *       000012.sst, CURRENT, ...      the state (regular files, no subdirectories)
 *       metadata.json                 {@link MetadataCodec}
 *       checksums.crc32c              {@link ChecksumFile}, written last
 *   transient/                        snapshots being taken, received, restored or deleted;
 *                                     emptied at open
 * </pre>
 */
public final class SnapshotLayout {

  public static final String SNAPSHOTS_DIRECTORY = "snapshots";
  public static final String TRANSIENT_DIRECTORY = "transient";
  public static final String METADATA_FILE = "metadata.json";
  public static final String CHECKSUM_FILE = "checksums.crc32c";

  private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9._-]{1,255}");

  private final Path root;

  public SnapshotLayout(Path root) {
    this.root = root;
  }

  public Path root() {
    return root;
  }

  public Path snapshotsDirectory() {
    return root.resolve(SNAPSHOTS_DIRECTORY);
  }

  public Path transientDirectory() {
    return root.resolve(TRANSIENT_DIRECTORY);
  }

  /**
   * True if {@code name} may be a file of a snapshot: 1-255 of {@code [A-Za-z0-9._-]}, not {@code
   * "."} or {@code ".."}. Such a name cannot leave the directory it is resolved in.
   */
  public static boolean isValidFileName(String name) {
    return name != null
        && FILE_NAME.matcher(name).matches()
        && !name.equals(".")
        && !name.equals("..");
  }

  /** True for the names the store writes itself, which state files may not use. */
  public static boolean isReservedFileName(String name) {
    return METADATA_FILE.equals(name) || CHECKSUM_FILE.equals(name);
  }
}
