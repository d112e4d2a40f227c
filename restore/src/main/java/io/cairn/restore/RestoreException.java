package io.cairn.restore;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A restore or verification could not be done: which {@link RestoreProblem} of the catalogue, and a
 * message of the shape "Expected X, but Y (context). What to do." naming the partition and file
 * when one is at fault. When a restore throws it, the data directory is as empty as it was before
 * (or was never touched, for {@link Kind#REFUSED}, {@link Kind#NOT_FOUND} and {@link
 * Kind#NOT_COMPLETED}).
 */
public final class RestoreException extends RuntimeException {

  /** Why, in categories a command line maps to exit codes. */
  public enum Kind {
    /** The target or the backup does not fit (non-empty directory, partition count, version). */
    REFUSED,
    /** No partition has a backup with that id (or there is no backup at all for {@code latest}). */
    NOT_FOUND,
    /** The backup is not COMPLETED on every partition (failed, in progress or incomplete). */
    NOT_COMPLETED,
    /** A stored file or the log it holds does not match what the backup recorded. */
    CORRUPTED,
    /** Anything else: the store or the local file system failed, a timeout, an interruption. */
    FAILED
  }

  private final RestoreProblem problem;
  private final OptionalInt partitionId;
  private final Optional<String> file;

  public RestoreException(RestoreProblem problem, String message) {
    this(problem, OptionalInt.empty(), Optional.empty(), message, null);
  }

  /**
   * @param partitionId the partition at fault, if one is
   * @param file the file at fault ({@code snapshot/<name>} or {@code segments/<name>}), if one is
   */
  public RestoreException(
      RestoreProblem problem,
      OptionalInt partitionId,
      Optional<String> file,
      String message,
      Throwable cause) {
    super(message, cause);
    this.problem = Objects.requireNonNull(problem, "problem");
    this.partitionId = Objects.requireNonNull(partitionId, "partitionId");
    this.file = Objects.requireNonNull(file, "file");
  }

  public RestoreProblem problem() {
    return problem;
  }

  public Kind kind() {
    return problem.kind();
  }

  public OptionalInt partitionId() {
    return partitionId;
  }

  public Optional<String> file() {
    return file;
  }
}
