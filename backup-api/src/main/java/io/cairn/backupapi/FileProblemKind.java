package io.cairn.backupapi;

/** What is wrong with one stored file. */
public enum FileProblemKind {
  /** The stored object is not there. */
  MISSING,
  /** The stored object is shorter than the manifest's stored size. */
  TRUNCATED,
  /** The stored object is longer, or decodes to another size than the manifest says. */
  SIZE_MISMATCH,
  /** The content's CRC32C differs from the manifest's. */
  CHECKSUM_MISMATCH,
  /** The stored object cannot be read or decoded (for example a corrupt zstd frame). */
  UNREADABLE
}
