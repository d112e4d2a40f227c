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
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * Links as stored: indented UTF-8 JSON (an operator can read one), then a last line {@code
 * #crc32c=<8 hex digits>} over the JSON bytes, so a changed link is refused even when it stays
 * valid JSON. Format {@value #FORMAT}: readers refuse another {@code linkFormat} and ignore fields
 * they do not know. Every field is checked; errors name the link and the field.
 */
public final class ArchiveLinkCodec {

  public static final int FORMAT = 1;

  /** Larger links are refused before parsing: a link describes one chunk and its checkpoints. */
  public static final int MAX_LINK_BYTES = 1024 * 1024;

  private static final String TRAILER = "\n#crc32c=";

  private final ObjectMapper mapper =
      new ObjectMapper().configure(SerializationFeature.INDENT_OUTPUT, true);

  public byte[] encode(ArchiveLink link) {
    ObjectNode root = mapper.createObjectNode();
    root.put("linkFormat", FORMAT);
    root.put("partitionId", link.partitionId());
    root.put("fromIndex", link.fromIndex());
    root.put("toIndex", link.toIndex());
    root.put("fromPosition", link.fromPosition());
    root.put("toPosition", link.toPosition());
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
      ObjectNode node = checkpoints.addObject();
      node.put("id", checkpoint.id());
      node.put("position", checkpoint.position());
      node.put("timestamp", checkpoint.timestamp());
      node.put("stateDigest", checkpoint.stateDigest());
    }
    byte[] json;
    try {
      json = mapper.writeValueAsBytes(root);
    } catch (IOException e) {
      throw new IllegalStateException("Expected to encode archive link " + link, e);
    }
    byte[] trailer =
        (TRAILER + Crc32c.toHex(crc32c(json, json.length)) + "\n")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] stored = new byte[json.length + trailer.length];
    System.arraycopy(json, 0, stored, 0, json.length);
    System.arraycopy(trailer, 0, stored, json.length, trailer.length);
    return stored;
  }

  /** The CRC32C of a stored link, which the next link records. */
  public static long crc32c(byte[] stored) {
    return crc32c(stored, stored.length);
  }

  /**
   * @param where the link's key, for messages
   * @throws ArchiveException naming {@code where} if the link cannot be trusted
   */
  public ArchiveLink decode(byte[] stored, String where) {
    if (stored.length > MAX_LINK_BYTES) {
      throw invalid(where, "at most " + MAX_LINK_BYTES + " bytes", stored.length + " bytes");
    }
    String text = new String(stored, StandardCharsets.UTF_8);
    int trailerAt = text.lastIndexOf(TRAILER);
    if (trailerAt < 0 || !text.endsWith("\n")) {
      throw invalid(where, "a last line '#crc32c=<8 hex digits>'", "it has none");
    }
    byte[] json = text.substring(0, trailerAt).getBytes(StandardCharsets.UTF_8);
    String recorded = text.substring(trailerAt + TRAILER.length(), text.length() - 1);
    long actual = crc32c(json, json.length);
    long expected;
    try {
      expected = Crc32c.fromHex(recorded);
    } catch (IllegalArgumentException e) {
      throw invalid(where, "a last line '#crc32c=<8 hex digits>'", "it reads '" + recorded + "'");
    }
    if (expected != actual) {
      throw invalid(
          where,
          "its content to have the CRC32C " + recorded + " of its last line",
          "it has " + Crc32c.toHex(actual) + ": the link was changed");
    }
    JsonNode root;
    try {
      root = mapper.readTree(json);
    } catch (IOException e) {
      throw new ArchiveException(
          "Expected archive link " + where + " to be JSON, but " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw invalid(where, "a JSON object", "it is not one");
    }
    long format = longField(root, "linkFormat", where);
    if (format != FORMAT) {
      throw invalid(where, "linkFormat " + FORMAT, "linkFormat " + format);
    }
    try {
      Optional<Long> previous =
          root.hasNonNull("previousLinkCrc32c")
              ? Optional.of(Crc32c.fromHex(textField(root, "previousLinkCrc32c", where)))
              : Optional.empty();
      String chunkKey = textField(root, "chunkKey", where);
      ObjectNames.requireValid(chunkKey, "chunkKey of archive link " + where);
      List<ArchivedCheckpoint> checkpoints = new ArrayList<>();
      JsonNode list = root.get("checkpoints");
      if (list == null || !list.isArray()) {
        throw invalid(where, "an array 'checkpoints'", "it has none");
      }
      for (JsonNode node : list) {
        checkpoints.add(
            new ArchivedCheckpoint(
                longField(node, "id", where),
                longField(node, "position", where),
                longField(node, "timestamp", where),
                textField(node, "stateDigest", where)));
      }
      long sizeBytes = longField(root, "sizeBytes", where);
      long storedBytes = longField(root, "storedBytes", where);
      if (sizeBytes < 0 || storedBytes < 0) {
        throw invalid(
            where, "sizeBytes and storedBytes >= 0", "they are " + sizeBytes + ", " + storedBytes);
      }
      return new ArchiveLink(
          (int) longField(root, "partitionId", where),
          longField(root, "fromIndex", where),
          longField(root, "toIndex", where),
          longField(root, "fromPosition", where),
          longField(root, "toPosition", where),
          chunkKey,
          sizeBytes,
          storedBytes,
          Crc32c.fromHex(textField(root, "crc32c", where)),
          Compression.fromManifestName(textField(root, "compression", where)),
          previous,
          (int) longField(root, "nodeId", where),
          Instant.parse(textField(root, "archivedAt", where)),
          checkpoints);
    } catch (IllegalArgumentException | DateTimeParseException e) {
      throw new ArchiveException(
          "Expected archive link " + where + " to hold valid fields, but " + e.getMessage(), e);
    }
  }

  private static long longField(JsonNode node, String name, String where) {
    JsonNode value = node.get(name);
    if (value == null || !value.canConvertToLong() || !value.isIntegralNumber()) {
      throw invalid(where, "an integer field '" + name + "'", "it is " + value);
    }
    return value.asLong();
  }

  private static String textField(JsonNode node, String name, String where) {
    JsonNode value = node.get(name);
    if (value == null || !value.isTextual()) {
      throw invalid(where, "a text field '" + name + "'", "it is " + value);
    }
    return value.asText();
  }

  private static long crc32c(byte[] bytes, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, length);
    return crc.getValue();
  }

  private static ArchiveException invalid(String where, String expected, String actual) {
    return new ArchiveException(
        "Expected archive link " + where + " to have " + expected + ", but " + actual);
  }
}
