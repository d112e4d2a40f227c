package io.cairn.restore;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The result of verifying one backup: every partition's files and, unless {@code quick}, every
 * partition's rebuilt state digest. The backup is clean only if every partition is.
 *
 * @param backupId the backup verified
 * @param partitionCount the partition count its descriptors record
 * @param quick true if only the files were checked (no rebuild)
 * @param partitions every partition {@code 1..partitionCount}, by partition id
 * @param restorePoint for a restore point, its checkpoint id: the backup continued from the log
 *     archive up to it, and the digests are the point's
 */
public record VerifyReport(
    long backupId,
    int partitionCount,
    boolean quick,
    List<PartitionVerification> partitions,
    Optional<Long> restorePoint) {

  public VerifyReport {
    partitions = List.copyOf(partitions);
    Objects.requireNonNull(restorePoint, "restorePoint");
  }

  /** The report of a backup. */
  public VerifyReport(
      long backupId, int partitionCount, boolean quick, List<PartitionVerification> partitions) {
    this(backupId, partitionCount, quick, partitions, Optional.empty());
  }

  public boolean isClean() {
    return partitions.stream().allMatch(p -> p.isClean(quick));
  }

  /** A report for operators, one block per partition and a final verdict. */
  public String describe() {
    String body = partitions.stream().map(p -> p.describe(quick)).collect(Collectors.joining("\n"));
    long bad = partitions.stream().filter(p -> !p.isClean(quick)).count();
    return "Backup "
        + backupId
        + restorePoint
            .map(id -> " continued from the log archive to restore point " + id)
            .orElse("")
        + " ("
        + partitionCount
        + " partitions, "
        + (quick ? "files only" : "files and state digests")
        + "):\n"
        + body
        + "\n"
        + (bad == 0
            ? "CLEAN: every file and every partition's state matches."
            : "NOT CLEAN: "
                + bad
                + " of "
                + partitions.size()
                + " partitions do not match. Take a new backup, or restore another one; a"
                + " partial restore loses the partitions listed above.");
  }
}
