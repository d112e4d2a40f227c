package io.cairn.backupstore;

import io.cairn.backupapi.manifest.Manifest;

/**
 * What a manifest change decided from the current manifest: write a new one (only if the manifest
 * is still the one the decision saw), or keep it.
 *
 * @param <R> what the change returns
 */
public sealed interface ManifestChange<R> {

  /** Writes {@code next} in place of the manifest the decision saw, then returns {@code result}. */
  record Write<R>(Manifest next, R result) implements ManifestChange<R> {}

  /** Leaves the manifest as it is and returns {@code result}. */
  record Keep<R>(R result) implements ManifestChange<R> {}

  static <R> ManifestChange<R> write(Manifest next, R result) {
    return new Write<>(next, result);
  }

  static <R> ManifestChange<R> keep(R result) {
    return new Keep<>(result);
  }
}
