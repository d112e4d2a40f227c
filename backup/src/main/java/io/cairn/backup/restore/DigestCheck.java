package io.cairn.backup.restore;

import io.cairn.backup.BackupMetrics.RestoreCheckResult;
import io.cairn.backupapi.BackupDescriptor;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The outcome of comparing a restored partition's state at its checkpoint with the digest the
 * backup recorded.
 *
 * @param partitionId the partition
 * @param backupId the backup (= checkpoint) id
 * @param checkpointPosition the position of the {@code CHECKPOINT CREATE} processed again
 * @param expectedDigest the backup's digest
 * @param actualDigest the restored state's digest at that command, empty if the command could not
 *     be checked (see {@code problem})
 * @param families the restored state's digested families, filled only when the digests differ
 * @param problem why the check could not compare digests (the command at the position is not the
 *     checkpoint, or the state holds that checkpoint already), empty otherwise
 * @param expectedFamilyDigests the backup's digest by column family (lowercase hex), empty when the
 *     backup recorded only the total
 */
public record DigestCheck(
    int partitionId,
    long backupId,
    long checkpointPosition,
    String expectedDigest,
    Optional<String> actualDigest,
    List<FamilyState> families,
    Optional<String> problem,
    SortedMap<String, String> expectedFamilyDigests) {

  public DigestCheck {
    Objects.requireNonNull(expectedDigest, "expectedDigest");
    Objects.requireNonNull(actualDigest, "actualDigest");
    Objects.requireNonNull(problem, "problem");
    families = List.copyOf(families);
    expectedFamilyDigests = Collections.unmodifiableSortedMap(new TreeMap<>(expectedFamilyDigests));
  }

  /** A check against a backup that recorded only the total digest. */
  public DigestCheck(
      int partitionId,
      long backupId,
      long checkpointPosition,
      String expectedDigest,
      Optional<String> actualDigest,
      List<FamilyState> families,
      Optional<String> problem) {
    this(
        partitionId,
        backupId,
        checkpointPosition,
        expectedDigest,
        actualDigest,
        families,
        problem,
        new TreeMap<>());
  }

  /**
   * The families whose digest differs from the backup's, each as {@code "<family> expected <hex>,
   * actual <hex|absent>"} in name order (families on one side only included). Empty when the
   * digests match, could not be compared, or the backup recorded no family digests.
   */
  public List<String> differingFamilies() {
    if (matches() || problem.isPresent() || expectedFamilyDigests.isEmpty()) {
      return List.of();
    }
    Map<String, String> actual = new TreeMap<>();
    families.forEach(family -> actual.put(family.family(), family.digestHex()));
    return BackupDescriptor.differingFamilies(expectedFamilyDigests, actual);
  }

  /** True iff the restored state reproduced the backup's digest. */
  public boolean matches() {
    return problem.isEmpty() && actualDigest.map(expectedDigest::equals).orElse(false);
  }

  /** The outcome as the {@code result} tag of {@code cairn.backup.restore.checks} counts it. */
  public RestoreCheckResult result() {
    if (matches()) {
      return RestoreCheckResult.MATCH;
    }
    return problem.isPresent() ? RestoreCheckResult.INVALID : RestoreCheckResult.MISMATCH;
  }

  /**
   * A report for operators: one line when it matches; otherwise led by the {@link #result()} (the
   * section of docs/troubleshooting.md that explains it), what differs and what to do.
   */
  public String describe() {
    String where =
        "partition "
            + partitionId
            + ", backup "
            + backupId
            + ", checkpoint position "
            + checkpointPosition;
    if (matches()) {
      return "State digest " + expectedDigest + " reproduced (" + where + ")";
    }
    if (problem.isPresent()) {
      return result()
          + ": Expected to check the restored state against digest "
          + expectedDigest
          + ", but "
          + problem.get()
          + " ("
          + where
          + "). Restore the partition again, or restore another backup.";
    }
    return result()
        + ": Expected the restored state to have the backup's digest "
        + expectedDigest
        + " at its checkpoint, but it has "
        + actualDigest.orElse("?")
        + " ("
        + where
        + "). The restored state by column family: "
        + (families.isEmpty()
            ? "(none)"
            : families.stream().map(FamilyState::toString).collect(Collectors.joining("; ")))
        + (expectedFamilyDigests.isEmpty()
            ? ". The backup records only the total digest; compare these with the source"
                + " cluster's state"
            : differingFamilies().isEmpty()
                ? ". Every family's digest equals the backup's, so the backup's recorded total"
                    + " does not fit its own families: its descriptor was altered"
                : ". Differing families: " + String.join("; ", differingFamilies()))
        + ". Restore another backup, or accept the partition as it is (a partial restore"
        + " loses what differs).";
  }
}
