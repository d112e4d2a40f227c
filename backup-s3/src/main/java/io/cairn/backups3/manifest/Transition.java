package io.cairn.backups3.manifest;

import io.cairn.backupapi.manifest.Manifest;

/**
 * What a manifest transition decided from the current manifest: write a new one (only if the
 * manifest is still the one the decision saw), or keep it.
 *
 * @param <R> what the transition returns
 */
public sealed interface Transition<R> {

  /** Writes {@code next} in place of the manifest the decision saw, then returns {@code result}. */
  record Write<R>(Manifest next, R result) implements Transition<R> {}

  /** Leaves the manifest as it is and returns {@code result}. */
  record Keep<R>(R result) implements Transition<R> {}

  static <R> Transition<R> write(Manifest next, R result) {
    return new Write<>(next, result);
  }

  static <R> Transition<R> keep(R result) {
    return new Keep<>(result);
  }
}
