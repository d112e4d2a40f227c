package io.cairn.snapshot.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cairn.snapshot.SnapshotMetadata;
import java.io.IOException;

/**
 * The snapshot metadata file: UTF-8 JSON, one object.
 *
 * <pre>
 * {
 *   "version" : 1,                       format version; only 1 is read
 *   "index" : 42,                        raft index of the last entry covered
 *   "term" : 3,                          raft term of that entry
 *   "processedPosition" : 1200,          last processed command
 *   "exportedPosition" : 1100,           lowest position every exporter has seen
 *   "lastWrittenPosition" : 1203,        highest follow-up position written
 *   "brokerVersion" : "0.1.0",
 *   "createdAtMillis" : 1767225600000,   from the taker's Clock
 *   "stateDigest" : "0f3a…"              StateDigest.toHex(), 32 hex digits
 * }
 * </pre>
 *
 * Unknown fields are ignored; a missing or mistyped field, or another version, is an error.
 */
public final class MetadataCodec {

  public static final int VERSION = 1;

  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private MetadataCodec() {}

  public static byte[] encode(SnapshotMetadata metadata) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("version", VERSION);
    node.put("index", metadata.index());
    node.put("term", metadata.term());
    node.put("processedPosition", metadata.processedPosition());
    node.put("exportedPosition", metadata.exportedPosition());
    node.put("lastWrittenPosition", metadata.lastWrittenPosition());
    node.put("brokerVersion", metadata.brokerVersion());
    node.put("createdAtMillis", metadata.createdAtMillis());
    node.put("stateDigest", metadata.stateDigestHex());
    try {
      return MAPPER.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Expected to encode " + metadata + ", but it failed", e);
    }
  }

  /**
   * @throws IllegalArgumentException saying what is wrong, if {@code content} is not a valid
   *     metadata file of version 1
   */
  public static SnapshotMetadata decode(byte[] content) {
    JsonNode node;
    try {
      node = MAPPER.readTree(content);
    } catch (IOException e) {
      throw invalid("it is not JSON: " + e.getMessage());
    }
    if (node == null || !node.isObject()) {
      throw invalid("it is not a JSON object");
    }
    long version = longField(node, "version");
    if (version != VERSION) {
      throw invalid("its version is " + version + " (this broker reads " + VERSION + ")");
    }
    try {
      return new SnapshotMetadata(
          longField(node, "index"),
          longField(node, "term"),
          longField(node, "processedPosition"),
          longField(node, "exportedPosition"),
          longField(node, "lastWrittenPosition"),
          textField(node, "brokerVersion"),
          longField(node, "createdAtMillis"),
          textField(node, "stateDigest"));
    } catch (IllegalArgumentException e) {
      throw invalid("its values are out of range: " + e.getMessage());
    }
  }

  private static long longField(JsonNode node, String name) {
    JsonNode field = node.get(name);
    if (field == null || !field.isIntegralNumber() || !field.canConvertToLong()) {
      throw invalid("field '" + name + "' is missing or not an integer");
    }
    return field.longValue();
  }

  private static String textField(JsonNode node, String name) {
    JsonNode field = node.get(name);
    if (field == null || !field.isTextual()) {
      throw invalid("field '" + name + "' is missing or not a string");
    }
    return field.textValue();
  }

  private static IllegalArgumentException invalid(String why) {
    return new IllegalArgumentException("Expected a valid snapshot metadata file, but " + why);
  }
}
