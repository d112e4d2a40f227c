package io.cairn.scheduler;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** What every caller of a {@link java.util.concurrent.CompletableFuture} needs once. */
public final class Futures {

  private Futures() {}

  /**
   * The failure behind {@link CompletionException} and {@link ExecutionException} wrappers (each
   * wrapper with a cause is stripped; one without a cause is kept, having nothing behind it).
   */
  public static Throwable unwrap(Throwable error) {
    Throwable cause = error;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }
}
