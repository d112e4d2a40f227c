package io.cairn.backup.restore;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cairn.files.DurableFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What a restored partition must reproduce: {@code <dataDir>/partitions/<p>/restored-backup.json},
 * written by a restore next to the partition's log. The restored leader processes the kept {@code
 * CHECKPOINT CREATE} at {@link #checkpointPosition()} again; its state digest at that point must
 * equal {@link #stateDigest()} (DESIGN.md §10). {@link RestoredCheckpointCheck} does that check;
 * the restore writes the file, the broker reads it when the partition starts, and the offline
 * verifier reads it before its rebuild.
 *
 * <pre>
 * {
 *   "formatVersion" : 1,
 *   "backupId" : 7,
 *   "partitionId" : 2,
 *   "sourceNodeId" : 1,                 the node whose backup copy was restored
 *   "checkpointPosition" : 4711,        the position of the kept CHECKPOINT CREATE(backupId)
 *   "stateDigest" : "1f…e0",            32 lowercase hex digits, from the backup descriptor
 *   "snapshotId" : "12-1-4700-4705",    absent for a log-only backup
 *   "brokerVersion" : "0.1.0",          the version that took the backup
 *   "familyDigests" : {"accounts" : "0a…", …}   optional: digest by column family, from the
 *                                       backup descriptor when it recorded them
 * }
 * </pre>
 *
 * The file is kept after the check: the command at that position is processed again only if its
 * {@code CREATED} batch was lost, and then the check must run again.
 *
 * @param backupId the backup (= checkpoint) id
 * @param partitionId the partition
 * @param sourceNodeId the node that took the restored copy
 * @param checkpointPosition the position of the kept {@code CHECKPOINT CREATE(backupId)}
 * @param stateDigest the digest recorded in the backup, 32 lowercase hex digits
 * @param snapshotId the installed snapshot, empty for a log-only backup
 * @param brokerVersion the version of the broker that took the backup
 * @param familyDigests the backup's digest by column family (lowercase hex), empty when the backup
 *     did not record them
 */
public record RestoreMarker(
    long backupId,
    int partitionId,
    int sourceNodeId,
    long checkpointPosition,
    String stateDigest,
    Optional<String> snapshotId,
    String brokerVersion,
    SortedMap<String, String> familyDigests) {

  /** The file's name in the partition directory. */
  public static final String FILE_NAME = "restored-backup.json";

  /** The format written and read. */
  public static final int FORMAT_VERSION = 1;

  private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{32}");
  private static final ObjectMapper JSON = new ObjectMapper();

  public RestoreMarker {
    Objects.requireNonNull(snapshotId, "snapshotId");
    Objects.requireNonNull(brokerVersion, "brokerVersion");
    List<String> violations = new ArrayList<>();
    if (backupId < 1) {
      violations.add("backupId >= 1, but was " + backupId);
    }
    if (partitionId < 1) {
      violations.add("partitionId >= 1, but was " + partitionId);
    }
    if (sourceNodeId < 0) {
      violations.add("sourceNodeId >= 0, but was " + sourceNodeId);
    }
    if (checkpointPosition < 1) {
      violations.add("checkpointPosition >= 1, but was " + checkpointPosition);
    }
    if (stateDigest == null || !DIGEST.matcher(stateDigest).matches()) {
      violations.add("stateDigest of 32 lowercase hex digits, but was '" + stateDigest + "'");
    }
    Objects.requireNonNull(familyDigests, "familyDigests");
    familyDigests.forEach(
        (family, digest) -> {
          if (digest == null || !DIGEST.matcher(digest).matches()) {
            violations.add(
                "familyDigests of 32 lowercase hex digits, but "
                    + family
                    + " was '"
                    + digest
                    + "'");
          }
        });
    if (!violations.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected " + String.join("; ", violations) + " (restore marker)");
    }
    familyDigests = Collections.unmodifiableSortedMap(new TreeMap<>(familyDigests));
  }

  /** A marker without per-family digests. */
  public RestoreMarker(
      long backupId,
      int partitionId,
      int sourceNodeId,
      long checkpointPosition,
      String stateDigest,
      Optional<String> snapshotId,
      String brokerVersion) {
    this(
        backupId,
        partitionId,
        sourceNodeId,
        checkpointPosition,
        stateDigest,
        snapshotId,
        brokerVersion,
        new TreeMap<>());
  }

  /** Writes {@code <partitionDirectory>/restored-backup.json} atomically. */
  public void write(Path partitionDirectory) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("formatVersion", FORMAT_VERSION);
    root.put("backupId", backupId);
    root.put("partitionId", partitionId);
    root.put("sourceNodeId", sourceNodeId);
    root.put("checkpointPosition", checkpointPosition);
    root.put("stateDigest", stateDigest);
    snapshotId.ifPresent(id -> root.put("snapshotId", id));
    root.put("brokerVersion", brokerVersion);
    if (!familyDigests.isEmpty()) {
      ObjectNode families = root.putObject("familyDigests");
      familyDigests.forEach(families::put);
    }
    DurableFiles.writeAtomically(
        partitionDirectory.resolve(FILE_NAME),
        JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
  }

  /**
   * Reads the marker of a partition directory.
   *
   * @return empty if the partition was not restored (no file)
   * @throws IllegalStateException naming the file if it exists but is not a valid marker (a
   *     restored partition whose expected digest is unknown must not start unchecked)
   * @throws UncheckedIOException if it cannot be read
   */
  public static Optional<RestoreMarker> read(Path partitionDirectory) {
    Path file = partitionDirectory.resolve(FILE_NAME);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    JsonNode root;
    try {
      root = JSON.readTree(Files.readAllBytes(file));
    } catch (JsonProcessingException e) {
      throw invalid(file, "valid JSON", e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException("Expected to read " + file + ", but it failed", e);
    }
    if (root == null || !root.isObject()) {
      throw invalid(file, "a JSON object", String.valueOf(root));
    }
    int version = root.path("formatVersion").asInt(-1);
    if (version != FORMAT_VERSION) {
      throw invalid(file, "formatVersion " + FORMAT_VERSION, "formatVersion " + version);
    }
    try {
      JsonNode snapshot = root.get("snapshotId");
      return Optional.of(
          new RestoreMarker(
              requiredLong(root, "backupId", file),
              (int) requiredLong(root, "partitionId", file),
              (int) requiredLong(root, "sourceNodeId", file),
              requiredLong(root, "checkpointPosition", file),
              requiredText(root, "stateDigest", file),
              snapshot == null || snapshot.isNull()
                  ? Optional.empty()
                  : Optional.of(snapshot.asText()),
              requiredText(root, "brokerVersion", file),
              familyDigests(root, file)));
    } catch (IllegalArgumentException e) {
      throw invalid(file, "a valid restore marker", e.getMessage());
    }
  }

  private static SortedMap<String, String> familyDigests(JsonNode root, Path file) {
    TreeMap<String, String> families = new TreeMap<>();
    JsonNode node = root.get("familyDigests");
    if (node == null || node.isNull()) {
      return families;
    }
    if (!node.isObject()) {
      throw invalid(file, "an object field 'familyDigests'", String.valueOf(node));
    }
    node.fields()
        .forEachRemaining(
            family -> {
              if (!family.getValue().isTextual()) {
                throw invalid(
                    file,
                    "text digests in 'familyDigests'",
                    family.getKey() + "=" + family.getValue());
              }
              families.put(family.getKey(), family.getValue().asText());
            });
    return families;
  }

  private static long requiredLong(JsonNode root, String name, Path file) {
    JsonNode node = root.get(name);
    if (node == null || !node.canConvertToLong() || !node.isIntegralNumber()) {
      throw invalid(file, "an integer field '" + name + "'", String.valueOf(node));
    }
    return node.asLong();
  }

  private static String requiredText(JsonNode root, String name, Path file) {
    JsonNode node = root.get(name);
    if (node == null || !node.isTextual()) {
      throw invalid(file, "a text field '" + name + "'", String.valueOf(node));
    }
    return node.asText();
  }

  private static IllegalStateException invalid(Path file, String expected, String actual) {
    return new IllegalStateException(
        "Expected "
            + expected
            + " in "
            + file
            + ", but found "
            + actual
            + ". The partition was restored from a backup and its state cannot be checked"
            + " without this file: restore it again.");
  }
}
