package io.cairn.backupapi.archive;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.ObjectNames;
import io.cairn.backupapi.content.Crc32c;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Links and restore points as stored: indented JSON sealed by {@link ChecksummedJson}. Format
 * {@value #FORMAT}: readers refuse another {@code format} and ignore fields they do not know. Every
 * field is checked; errors name the object and the field.
 */
public final class ArchiveLinkCodec {

  public static final int FORMAT = 1;

  /** Larger links are refused before parsing: a link describes one chunk and its checkpoints. */
  public static final int MAX_LINK_BYTES = 1024 * 1024;

  /** Larger restore points are refused before parsing. */
  public static final int MAX_POINT_BYTES = 16 * 1024;

  private final ObjectMapper mapper =
      new ObjectMapper().configure(SerializationFeature.INDENT_OUTPUT, true);

  public byte[] encode(ArchiveLink link) {
    ObjectNode root = mapper.createObjectNode();
    root.put("format", FORMAT);
    root.put("partitionId", link.partitionId());
    root.put("fromIndex", link.fromIndex());
    root.put("toIndex", link.toIndex());
    root.put("fromPosition", link.fromPosition());
    root.put("toPosition", link.toPosition());
    root.put("toChecksum", link.toChecksum());
    root.put("chunkKey", link.chunkKey());
    root.put("sizeBytes", link.sizeBytes());
    root.put("storedBytes", link.storedBytes());
    root.put("crc32c", Crc32c.toHex(link.crc32c()));
    root.put("compression", link.compression().manifestName());
    link.previousLinkCrc32c().ifPresent(crc -> root.put("previousLinkCrc32c", Crc32c.toHex(crc)));
    root.put("nodeId", link.nodeId());
    root.put("archivedAt", link.archivedAt().toString());
    ArrayNode checkpoints = root.putArray("checkpoints");
    for (ArchivedCheckpoint checkpoint : link.checkpoints()) {
      put(checkpoints.addObject(), checkpoint);
    }
    return seal(root);
  }

  /** A restore point of {@code partitionId} as stored under {@link ArchiveKeys#point}. */
  public byte[] encodePoint(int partitionId, ArchivedCheckpoint point) {
    ObjectNode root = mapper.createObjectNode();
    root.put("format", FORMAT);
    root.put("partitionId", partitionId);
    put(root, point);
    return seal(root);
  }

  /** The CRC32C of a stored link, which the next link records. */
  public static long crc32c(byte[] stored) {
    return ChecksummedJson.crc32c(stored);
  }

  /**
   * @param where the link's key, for messages
   * @throws ArchiveException naming {@code where} if the link cannot be trusted
   */
  public ArchiveLink decode(byte[] stored, String where) {
    String what = "archive link " + where;
    JsonNode root = parse(ChecksummedJson.open(stored, MAX_LINK_BYTES, what), what);
    try {
      Optional<Long> previous =
          root.hasNonNull("previousLinkCrc32c")
              ? Optional.of(Crc32c.fromHex(textField(root, "previousLinkCrc32c", what)))
              : Optional.empty();
      String chunkKey = textField(root, "chunkKey", what);
      ObjectNames.requireValid(chunkKey, "chunkKey of " + what);
      List<ArchivedCheckpoint> checkpoints = new ArrayList<>();
      JsonNode list = root.get("checkpoints");
      if (list == null || !list.isArray()) {
        throw ChecksummedJson.invalid(what, "an array 'checkpoints'", "it has none");
      }
      for (JsonNode node : list) {
        checkpoints.add(checkpoint(node, what));
      }
      long sizeBytes = longField(root, "sizeBytes", what);
      long storedBytes = longField(root, "storedBytes", what);
      if (sizeBytes < 0 || storedBytes < 0) {
        throw ChecksummedJson.invalid(
            what, "sizeBytes and storedBytes >= 0", "they are " + sizeBytes + ", " + storedBytes);
      }
      return new ArchiveLink(
          (int) longField(root, "partitionId", what),
          longField(root, "fromIndex", what),
          longField(root, "toIndex", what),
          longField(root, "fromPosition", what),
          longField(root, "toPosition", what),
          (int) longField(root, "toChecksum", what),
          chunkKey,
          sizeBytes,
          storedBytes,
          Crc32c.fromHex(textField(root, "crc32c", what)),
          Compression.fromManifestName(textField(root, "compression", what)),
          previous,
          (int) longField(root, "nodeId", what),
          Instant.parse(textField(root, "archivedAt", what)),
          checkpoints);
    } catch (IllegalArgumentException | DateTimeParseException e) {
      throw new ArchiveException(
          "Expected " + what + " to hold valid fields, but " + e.getMessage(), e);
    }
  }

  /**
   * A stored restore point; its partition must be {@code partitionId}.
   *
   * @throws ArchiveException naming {@code where} if the point cannot be trusted
   */
  public ArchivedCheckpoint decodePoint(byte[] stored, int partitionId, String where) {
    String what = "restore point " + where;
    JsonNode root = parse(ChecksummedJson.open(stored, MAX_POINT_BYTES, what), what);
    long partition = longField(root, "partitionId", what);
    if (partition != partitionId) {
      throw ChecksummedJson.invalid(what, "partitionId " + partitionId, "it has " + partition);
    }
    try {
      return checkpoint(root, what);
    } catch (IllegalArgumentException e) {
      throw new ArchiveException(
          "Expected " + what + " to hold valid fields, but " + e.getMessage(), e);
    }
  }

  private static void put(ObjectNode node, ArchivedCheckpoint checkpoint) {
    node.put("id", checkpoint.id());
    node.put("position", checkpoint.position());
    node.put("timestamp", checkpoint.timestamp());
    node.put("stateDigest", checkpoint.stateDigest());
    node.put("index", checkpoint.index());
  }

  private static ArchivedCheckpoint checkpoint(JsonNode node, String what) {
    return new ArchivedCheckpoint(
        longField(node, "id", what),
        longField(node, "position", what),
        longField(node, "timestamp", what),
        textField(node, "stateDigest", what),
        longField(node, "index", what));
  }

  private byte[] seal(ObjectNode root) {
    try {
      return ChecksummedJson.seal(mapper.writeValueAsBytes(root));
    } catch (IOException e) {
      throw new IllegalStateException("Expected to encode " + root, e);
    }
  }

  private JsonNode parse(byte[] json, String what) {
    JsonNode root;
    try {
      root = mapper.readTree(json);
    } catch (IOException e) {
      throw new ArchiveException("Expected " + what + " to be JSON, but " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw ChecksummedJson.invalid(what, "a JSON object", "it is not one");
    }
    long format = longField(root, "format", what);
    if (format != FORMAT) {
      throw ChecksummedJson.invalid(what, "format " + FORMAT, "format " + format);
    }
    return root;
  }

  private static long longField(JsonNode node, String name, String what) {
    JsonNode value = node.get(name);
    if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
      throw ChecksummedJson.invalid(what, "an integer field '" + name + "'", "it is " + value);
    }
    return value.asLong();
  }

  private static String textField(JsonNode node, String name, String what) {
    JsonNode value = node.get(name);
    if (value == null || !value.isTextual()) {
      throw ChecksummedJson.invalid(what, "a text field '" + name + "'", "it is " + value);
    }
    return value.asText();
  }
}
