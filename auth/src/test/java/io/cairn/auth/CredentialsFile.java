package io.cairn.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;

/** Writes credentials files as an operator would: one line each, owner-only permissions. */
final class CredentialsFile {

  private CredentialsFile() {}

  /** A new file {@code api-keys} in {@code dir} with {@code lines}, mode 600. */
  static Path write(Path dir, String... lines) {
    Path file = dir.resolve("api-keys");
    try {
      Files.writeString(file, String.join("\n", lines) + "\n");
      chmod(file, "rw-------");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  /**
   * Replaces the content and moves the modification time a second on, so that the change is seen
   * even where the filesystem's clock is coarse.
   */
  static void rewrite(Path file, String... lines) {
    try {
      FileTime before = Files.getLastModifiedTime(file);
      Files.writeString(file, String.join("\n", lines) + "\n");
      Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + 1_000));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void chmod(Path file, String permissions) {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
