package io.cairn.broker.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cairn.files.DurableFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a data directory was made for: {@code <dataDir>/node.json}. A broker writes it the first
 * time it starts on an empty directory and refuses to start on a directory made for another node
 * id, cluster id or partition count (DESIGN.md §3): the raft logs and states in it belong to that
 * shape, and running another shape on them would mix two clusters' data.
 *
 * <pre>
 * {
 *   "formatVersion" : 1,          the layout of this file and of the data directory
 *   "clusterId" : "cairn",
 *   "nodeId" : 0,
 *   "partitionCount" : 3
 * }
 * </pre>
 *
 * Written to {@code node.json.tmp}, fsynced, renamed atomically, then the directory is fsynced, so
 * a crash leaves the old file or the new one. Fields this version does not know are ignored; a
 * higher format version is refused.
 *
 * @param formatVersion {@link #FORMAT_VERSION}
 * @param clusterId the cluster's id
 * @param nodeId the node's id
 * @param partitionCount the cluster's partition count
 */
public record NodeDescriptor(int formatVersion, String clusterId, int nodeId, int partitionCount) {

  /** The file's name in the data directory. */
  public static final String FILE_NAME = "node.json";

  /** The format this broker writes and reads. */
  public static final int FORMAT_VERSION = 1;

  private static final Logger LOG = LoggerFactory.getLogger(NodeDescriptor.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  public NodeDescriptor {
    Objects.requireNonNull(clusterId, "clusterId");
  }

  /** The descriptor of the current format. */
  public static NodeDescriptor of(String clusterId, int nodeId, int partitionCount) {
    return new NodeDescriptor(FORMAT_VERSION, clusterId, nodeId, partitionCount);
  }

  /**
   * Checks that {@code dataDirectory} was made for {@code expected}, or makes it so: creates the
   * directory and writes {@code node.json} when the directory is new (empty, or holding no
   * partitions yet).
   *
   * @return the descriptor found or written
   * @throws NodeDescriptorMismatchException if the directory belongs to another node id, cluster id
   *     or partition count, holds partitions without a descriptor, or has an unreadable or newer
   *     descriptor; the message says what differs and what to do
   * @throws UncheckedIOException if the directory or file cannot be created or read
   */
  public static NodeDescriptor checkOrCreate(Path dataDirectory, NodeDescriptor expected) {
    Path file = dataDirectory.resolve(FILE_NAME);
    try {
      Files.createDirectories(dataDirectory);
      if (Files.exists(file)) {
        NodeDescriptor found = read(file);
        check(dataDirectory, expected, found);
        return found;
      }
      if (holdsPartitions(dataDirectory)) {
        throw new NodeDescriptorMismatchException(
            "Expected "
                + file
                + " in a data directory that holds partitions, but it is missing. The directory"
                + " was not made by this broker version, or node.json was deleted. If it is this"
                + " node's data ("
                + describe(expected)
                + "), write node.json with those values; otherwise point data.directory at this"
                + " node's own directory");
      }
      write(dataDirectory, expected);
      LOG.info("Wrote {} for {} in {}", FILE_NAME, describe(expected), dataDirectory);
      return expected;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Expected to create or read "
              + file
              + ", but it failed. Check the data directory's"
              + " permissions and free space",
          e);
    }
  }

  /**
   * Reads {@code file}.
   *
   * @throws NodeDescriptorMismatchException if it is not a valid descriptor of a known version
   */
  public static NodeDescriptor read(Path file) throws IOException {
    JsonNode root;
    try {
      root = JSON.readTree(Files.readAllBytes(file));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new NodeDescriptorMismatchException(
          "Expected "
              + file
              + " to be a JSON node descriptor, but it is not valid JSON ("
              + e.getOriginalMessage()
              + "). Restore the file or empty the data directory (its data is lost)");
    }
    List<String> problems = new ArrayList<>();
    int version = intField(root, "formatVersion", problems);
    if (problems.isEmpty() && version > FORMAT_VERSION) {
      throw new NodeDescriptorMismatchException(
          "Expected node descriptor format version "
              + FORMAT_VERSION
              + " or lower, but "
              + file
              + " has version "
              + version
              + ". The data directory was made by a newer broker; run that version");
    }
    JsonNode clusterId = root == null ? null : root.get("clusterId");
    if (clusterId == null || !clusterId.isTextual()) {
      problems.add("clusterId (a string)");
    }
    int nodeId = intField(root, "nodeId", problems);
    int partitionCount = intField(root, "partitionCount", problems);
    if (!problems.isEmpty()) {
      throw new NodeDescriptorMismatchException(
          "Expected "
              + file
              + " to hold formatVersion, clusterId, nodeId and partitionCount, but these are"
              + " missing or of the wrong type: "
              + String.join(", ", problems)
              + ". Restore the file or empty the data directory (its data is lost)");
    }
    return new NodeDescriptor(version, clusterId.asText(), nodeId, partitionCount);
  }

  private static int intField(JsonNode root, String name, List<String> problems) {
    JsonNode node = root == null ? null : root.get(name);
    if (node == null || !node.isInt()) {
      problems.add(name + " (an integer)");
      return -1;
    }
    return node.asInt();
  }

  private static void check(Path dataDirectory, NodeDescriptor expected, NodeDescriptor found) {
    List<String> differences = new ArrayList<>();
    if (!found.clusterId().equals(expected.clusterId())) {
      differences.add(
          "cluster id '" + found.clusterId() + "' (configured '" + expected.clusterId() + "')");
    }
    if (found.nodeId() != expected.nodeId()) {
      differences.add("node id " + found.nodeId() + " (configured " + expected.nodeId() + ")");
    }
    if (found.partitionCount() != expected.partitionCount()) {
      differences.add(
          "partition count "
              + found.partitionCount()
              + " (configured "
              + expected.partitionCount()
              + ")");
    }
    if (differences.isEmpty()) {
      return;
    }
    throw new NodeDescriptorMismatchException(
        "Expected the data directory "
            + dataDirectory
            + " to belong to "
            + describe(expected)
            + ", but it was made for "
            + describe(found)
            + ": "
            + String.join(", ", differences)
            + " differ ("
            + dataDirectory.resolve(FILE_NAME)
            + "). Point data.directory at this node's own directory or fix the configuration"
            + " (cluster.clusterId, cluster.nodeId, cluster.partitionCount); a cluster's"
            + " partition count cannot change. To start this node afresh, empty the directory"
            + " (its data is lost; restore it from a backup instead if you need it)");
  }

  private static String describe(NodeDescriptor descriptor) {
    return "node "
        + descriptor.nodeId()
        + " of cluster '"
        + descriptor.clusterId()
        + "' with "
        + descriptor.partitionCount()
        + " partitions";
  }

  private static boolean holdsPartitions(Path dataDirectory) throws IOException {
    Path partitions = dataDirectory.resolve("partitions");
    if (!Files.isDirectory(partitions)) {
      return false;
    }
    try (Stream<Path> entries = Files.list(partitions)) {
      return entries.findAny().isPresent();
    }
  }

  private static void write(Path dataDirectory, NodeDescriptor descriptor) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("formatVersion", descriptor.formatVersion());
    root.put("clusterId", descriptor.clusterId());
    root.put("nodeId", descriptor.nodeId());
    root.put("partitionCount", descriptor.partitionCount());
    byte[] bytes = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
    DurableFiles.writeAtomically(dataDirectory.resolve(FILE_NAME), bytes);
  }
}
