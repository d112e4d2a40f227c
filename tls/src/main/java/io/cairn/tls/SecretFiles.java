package io.cairn.tls;

import java.nio.file.Path;

/**
 * Secrets on disk (keys, API keys, master keys) written as the key files are: readable by their
 * owner only from the moment the file exists, forced to the device and renamed into place, so a
 * reader never sees half a file nor a moment when others could read it.
 */
public final class SecretFiles {

  private SecretFiles() {}

  /**
   * Replaces {@code file} with {@code text} (UTF-8), owner-only.
   *
   * @throws java.io.UncheckedIOException naming the file if it cannot be written
   */
  public static void writeOwnerOnly(Path file, String text) {
    PemWriter.write(file, text, PemWriter.OWNER_ONLY);
  }
}
