package io.cairn.restore.catalog;

import io.cairn.backupapi.BackupCorruptedException;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.archive.ArchiveException;
import io.cairn.restore.RestoreException;
import io.cairn.restore.RestoreProblem;
import io.cairn.scheduler.Futures;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waits for a store's futures and turns their failures into {@link RestoreException}s. */
public final class StoreCalls {

  private StoreCalls() {}

  /**
   * Waits up to {@code timeout} for {@code future}.
   *
   * @param what names the call in messages ("listing backup 7")
   * @param partitionId the partition the call is about, if one
   * @throws RestoreException of kind CORRUPTED for a manifest or file that does not match, FAILED
   *     for anything else (the store failed, a timeout, an interruption)
   */
  public static <T> T await(
      CompletableFuture<T> future, Duration timeout, String what, OptionalInt partitionId) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new RestoreException(
          RestoreProblem.INTERRUPTED,
          partitionId,
          Optional.empty(),
          "Interrupted while " + what,
          e);
    } catch (TimeoutException e) {
      throw new RestoreException(
          RestoreProblem.STORE_TIMEOUT,
          partitionId,
          Optional.empty(),
          "Expected "
              + what
              + " to finish within "
              + timeout
              + ", but it did not. Check the"
              + " backup store's health, or raise the timeout.",
          e);
    } catch (ExecutionException e) {
      throw translate(Futures.unwrap(e), what, partitionId);
    }
  }

  /** A store failure as a restore failure of the right kind, keeping the store's message. */
  public static RestoreException translate(Throwable cause, String what, OptionalInt partitionId) {
    if (cause instanceof RestoreException restore) {
      return restore;
    }
    if (cause instanceof BackupCorruptedException corrupted) {
      var problem = corrupted.problem();
      return new RestoreException(
          RestoreProblem.FILE_CORRUPTED,
          partitionId,
          Optional.of(problem.fileSet().directoryName() + "/" + problem.name()),
          prefix(partitionId) + corrupted.getMessage(),
          cause);
    }
    if (cause instanceof ArchiveException) {
      return new RestoreException(
          RestoreProblem.ARCHIVE_DAMAGED,
          partitionId,
          Optional.empty(),
          prefix(partitionId) + cause.getMessage(),
          cause);
    }
    if (cause instanceof ManifestException) {
      return new RestoreException(
          RestoreProblem.MANIFEST_UNTRUSTWORTHY,
          partitionId,
          Optional.empty(),
          prefix(partitionId)
              + "Expected a trustworthy manifest while "
              + what
              + ", but: "
              + cause.getMessage(),
          cause);
    }
    return new RestoreException(
        RestoreProblem.STORE_FAILED,
        partitionId,
        Optional.empty(),
        prefix(partitionId) + "Expected " + what + " to succeed, but it failed: " + describe(cause),
        cause);
  }

  private static String prefix(OptionalInt partitionId) {
    return partitionId.isPresent() ? "Partition " + partitionId.getAsInt() + ": " : "";
  }

  /** The message of {@code error}, or the error itself when it has none. */
  public static String describe(Throwable error) {
    String message = error.getMessage();
    return message == null || message.isBlank() ? error.toString() : message;
  }
}
