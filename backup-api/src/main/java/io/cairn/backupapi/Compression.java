package io.cairn.backupapi;

import java.util.Arrays;

/** How a file's content is stored; recorded per file in the manifest. */
public enum Compression {
  /** Stored as is: the stored size equals the size. */
  NONE("none"),
  /** One zstd frame (with its content checksum) of the whole file. */
  ZSTD("zstd");

  private final String manifestName;

  Compression(String manifestName) {
    this.manifestName = manifestName;
  }

  /** The name written in manifests and accepted in configuration. */
  public String manifestName() {
    return manifestName;
  }

  /**
   * @throws IllegalArgumentException naming the allowed values if {@code name} is none of them
   */
  public static Compression fromManifestName(String name) {
    for (Compression c : values()) {
      if (c.manifestName.equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "Expected compression to be one of "
            + Arrays.stream(values()).map(Compression::manifestName).toList()
            + ", but was '"
            + name
            + "'");
  }
}
