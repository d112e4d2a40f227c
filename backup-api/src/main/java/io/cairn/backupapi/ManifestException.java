package io.cairn.backupapi;

/**
 * A manifest that cannot be trusted: unparseable, of an unknown major version, changed since it was
 * written (its {@code manifestChecksum} does not match), inconsistent, or naming a file that could
 * escape its directory. The message names the manifest and what is wrong.
 */
public final class ManifestException extends BackupStoreException {

  private final String manifest;

  public ManifestException(String manifest, String message) {
    super(message);
    this.manifest = manifest;
  }

  public ManifestException(String manifest, String message, Throwable cause) {
    super(message, cause);
    this.manifest = manifest;
  }

  /** Where the manifest is (a path or an object key). */
  public String manifest() {
    return manifest;
  }
}
