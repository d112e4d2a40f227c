package io.cairn.restore;

import java.util.Objects;
import java.util.Optional;

/**
 * A partition a partial restore ({@link RestoreConfig#allowPartial()}) left without data, because
 * no node's copy of its backup verified. Its directory ({@code partitions/<p>}) is absent: a broker
 * creates it on start and the partition starts as a new replica — it gets the data from the other
 * replicas of the partition if one holds it, and starts empty (term 0, no log, no snapshot)
 * otherwise.
 *
 * @param partitionId the partition
 * @param problem why (a problem of {@link RestoreException.Kind#CORRUPTED})
 * @param file the file at fault of the first copy tried ({@code segments/<name>} or {@code
 *     snapshot/<name>}), if one was named
 * @param reason the failure's message (with every further copy's reason appended)
 */
public record SkippedPartition(
    int partitionId, RestoreProblem problem, Optional<String> file, String reason) {

  public SkippedPartition {
    Objects.requireNonNull(problem, "problem");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(reason, "reason");
  }

  /** A skip for {@code failure}, the failure of the partition's last copy tried. */
  static SkippedPartition of(int partitionId, RestoreException failure) {
    StringBuilder reason = new StringBuilder(String.valueOf(failure.getMessage()));
    for (Throwable other : failure.getSuppressed()) {
      if (other instanceof RestoreException) {
        reason.append("; ").append(other.getMessage());
      }
    }
    return new SkippedPartition(partitionId, failure.problem(), failure.file(), reason.toString());
  }
}
