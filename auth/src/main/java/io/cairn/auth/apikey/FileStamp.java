package io.cairn.auth.apikey;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Objects;
import java.util.Set;

/**
 * What tells that a file changed without reading it: modification time, size, where the filesystem
 * has them its identity (the inode: a file replaced by a rename is seen even when time and size
 * match) and its POSIX permissions (a file refused as open to others is read again once {@code
 * chmod 600} closes it, though its content did not change).
 */
record FileStamp(
    FileTime lastModified, long size, Object fileKey, Set<PosixFilePermission> permissions) {

  static FileStamp of(Path file) throws IOException {
    BasicFileAttributes attributes;
    Set<PosixFilePermission> permissions = Set.of();
    try {
      PosixFileAttributes posix = Files.readAttributes(file, PosixFileAttributes.class);
      permissions = posix.permissions();
      attributes = posix;
    } catch (UnsupportedOperationException notPosix) {
      attributes = Files.readAttributes(file, BasicFileAttributes.class);
    }
    return new FileStamp(
        attributes.lastModifiedTime(), attributes.size(), attributes.fileKey(), permissions);
  }

  boolean sameAs(FileStamp other) {
    return other != null
        && lastModified.equals(other.lastModified)
        && size == other.size
        && Objects.equals(fileKey, other.fileKey)
        && permissions.equals(other.permissions);
  }
}
