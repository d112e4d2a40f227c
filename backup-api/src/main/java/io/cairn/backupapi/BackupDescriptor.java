package io.cairn.backupapi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What a partition backup contains, as restore and verify need to know it.
 *
 * @param checkpointId the backup id (= checkpoint id), {@code >= 1}
 * @param partitionId the partition, {@code >= 1} and {@code <= numberOfPartitions}
 * @param nodeId the node that took it, {@code >= 0}
 * @param checkpointPosition the position of the {@code CHECKPOINT CREATE} command, {@code >= 0};
 *     restore keeps the log up to and including it
 * @param snapshotId the reserved snapshot's id, empty for a log-only backup
 * @param numberOfPartitions the cluster's partition count when the backup was taken
 * @param brokerVersion the version of the broker that took it
 * @param stateDigest lowercase hex digest carried by the checkpoint's {@code CREATED} event; the
 *     restored partition must reproduce it
 * @param fileCount snapshot files plus segment files
 * @param sizeBytes the sum of every file's (uncompressed) size
 * @param familyDigests lowercase hex digest by digested column family of the state at the
 *     checkpoint, whose sum is {@code stateDigest}; empty when the backup did not record them
 *     (optional: older manifests lack it). Lets a mismatch report name the families that differ.
 */
public record BackupDescriptor(
    long checkpointId,
    int partitionId,
    int nodeId,
    long checkpointPosition,
    Optional<String> snapshotId,
    int numberOfPartitions,
    String brokerVersion,
    String stateDigest,
    int fileCount,
    long sizeBytes,
    SortedMap<String, String> familyDigests) {

  private static final Pattern HEX = Pattern.compile("([0-9a-f]{2})+");

  public BackupDescriptor {
    Objects.requireNonNull(snapshotId, "snapshotId");
    // Validates the three ids with the identifier's messages.
    new BackupIdentifier(nodeId, partitionId, checkpointId);
    if (checkpointPosition < 0) {
      throw invalid("checkpointPosition >= 0", checkpointPosition);
    }
    if (snapshotId.isPresent() && snapshotId.get().isBlank()) {
      throw invalid("snapshotId to be empty or not blank", "'" + snapshotId.get() + "'");
    }
    if (numberOfPartitions < 1 || partitionId > numberOfPartitions) {
      throw invalid(
          "1 <= partitionId <= numberOfPartitions",
          "partitionId=" + partitionId + ", numberOfPartitions=" + numberOfPartitions);
    }
    if (brokerVersion == null || brokerVersion.isBlank()) {
      throw invalid("a non-blank brokerVersion", "'" + brokerVersion + "'");
    }
    if (stateDigest == null || !HEX.matcher(stateDigest).matches()) {
      throw invalid(
          "stateDigest in lowercase hex with an even number of digits", "'" + stateDigest + "'");
    }
    if (fileCount < 0) {
      throw invalid("fileCount >= 0", fileCount);
    }
    if (sizeBytes < 0) {
      throw invalid("sizeBytes >= 0", sizeBytes);
    }
    Objects.requireNonNull(familyDigests, "familyDigests");
    TreeMap<String, String> copy = new TreeMap<>();
    familyDigests.forEach(
        (family, digest) -> {
          if (family == null || family.isBlank()) {
            throw invalid("non-blank family names in familyDigests", "'" + family + "'");
          }
          if (digest == null || !HEX.matcher(digest).matches()) {
            throw invalid(
                "familyDigests in lowercase hex with an even number of digits",
                family + "='" + digest + "'");
          }
          copy.put(family, digest);
        });
    familyDigests = Collections.unmodifiableSortedMap(copy);
  }

  /** A descriptor without per-family digests. */
  public BackupDescriptor(
      long checkpointId,
      int partitionId,
      int nodeId,
      long checkpointPosition,
      Optional<String> snapshotId,
      int numberOfPartitions,
      String brokerVersion,
      String stateDigest,
      int fileCount,
      long sizeBytes) {
    this(
        checkpointId,
        partitionId,
        nodeId,
        checkpointPosition,
        snapshotId,
        numberOfPartitions,
        brokerVersion,
        stateDigest,
        fileCount,
        sizeBytes,
        new TreeMap<>());
  }

  /**
   * The families whose recorded digest differs from {@code actual} (digest by family name), each as
   * {@code "<family> expected <hex>, actual <hex|absent>"} in name order, including families
   * present on one side only. Empty when this descriptor records no family digests.
   */
  public List<String> differingFamilies(Map<String, String> actual) {
    return differingFamilies(familyDigests, actual);
  }

  /**
   * One line per column family whose digest in {@code expected} and {@code actual} differs ("name
   * expected X, actual Y", "absent" for a missing one), in name order; empty when {@code expected}
   * is (a backup that recorded only the total).
   */
  public static List<String> differingFamilies(
      Map<String, String> expected, Map<String, String> actual) {
    List<String> differing = new ArrayList<>();
    if (expected.isEmpty()) {
      return differing;
    }
    TreeSet<String> names = new TreeSet<>(expected.keySet());
    names.addAll(actual.keySet());
    for (String name : names) {
      String expectedDigest = expected.get(name);
      String found = actual.get(name);
      if (!Objects.equals(expectedDigest, found)) {
        differing.add(
            name
                + " expected "
                + (expectedDigest == null ? "absent" : expectedDigest)
                + ", actual "
                + (found == null ? "absent" : found));
      }
    }
    return differing;
  }

  private static IllegalArgumentException invalid(String rule, Object actual) {
    return new IllegalArgumentException(
        "Expected " + rule + ", but was " + actual + " (backup descriptor)");
  }

  /** The identifier this descriptor belongs to. */
  public BackupIdentifier identifier() {
    return new BackupIdentifier(nodeId, partitionId, checkpointId);
  }
}
