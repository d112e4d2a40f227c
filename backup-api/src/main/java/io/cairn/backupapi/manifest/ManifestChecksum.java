package io.cairn.backupapi.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cairn.backupapi.content.Crc32c;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * The checksum a manifest carries over its own content (format 1.2 and later). Thread-safe.
 *
 * <p>The field {@value #FIELD} holds {@code "crc32c:"} and 8 lowercase hex digits: the CRC32C of
 * the manifest's <em>canonical bytes</em> — its JSON tree as read (key order and values kept,
 * fields this reader does not know included, so a newer minor version's manifest still verifies)
 * without {@value #FIELD}, written compactly (no whitespace between tokens) as UTF-8. Layout and
 * whitespace of the stored JSON are thus not covered; a change that keeps every parsed key and
 * value (such as the letter case of a {@code \\u} escape's hex digits) does not change the content
 * and is not detected. Every other change of a key, value or order is.
 */
public final class ManifestChecksum {

  /** The top-level field that holds the checksum. */
  public static final String FIELD = "manifestChecksum";

  /** The prefix of the field's value, naming the algorithm. */
  public static final String PREFIX = "crc32c:";

  private static final Pattern VALUE = Pattern.compile(Pattern.quote(PREFIX) + "[0-9a-f]{8}");
  private static final ObjectMapper COMPACT =
      new ObjectMapper().configure(SerializationFeature.INDENT_OUTPUT, false);

  private ManifestChecksum() {}

  /**
   * Computes the checksum of {@code tree}, ignoring its {@value #FIELD} if any.
   *
   * @return {@code "crc32c:"} and 8 lowercase hex digits
   */
  public static String of(ObjectNode tree) {
    ObjectNode content = tree;
    if (tree.has(FIELD)) {
      content = tree.deepCopy();
      content.remove(FIELD);
    }
    var crc = new CRC32C();
    crc.update(canonicalBytes(content));
    return PREFIX + Crc32c.toHex(crc.getValue());
  }

  /**
   * Returns a copy of {@code tree} that carries its checksum: {@value #FIELD} replaced in place if
   * present, otherwise inserted right after {@code manifestVersion} (or first if that is absent).
   */
  public static ObjectNode seal(ObjectNode tree) {
    String checksum = of(tree);
    if (tree.has(FIELD)) {
      ObjectNode sealed = tree.deepCopy();
      sealed.put(FIELD, checksum);
      return sealed;
    }
    ObjectNode sealed = tree.objectNode();
    if (!tree.has("manifestVersion")) {
      sealed.put(FIELD, checksum);
    }
    for (Map.Entry<String, JsonNode> field : tree.properties()) {
      sealed.set(field.getKey(), field.getValue().deepCopy());
      if (field.getKey().equals("manifestVersion")) {
        sealed.put(FIELD, checksum);
      }
    }
    return sealed;
  }

  /** Whether {@code value} is {@code "crc32c:"} and 8 lowercase hex digits. */
  static boolean isWellFormed(String value) {
    return VALUE.matcher(value).matches();
  }

  private static byte[] canonicalBytes(ObjectNode content) {
    try {
      return COMPACT.writeValueAsBytes(content);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Expected to write a JSON tree, but " + e.getMessage(), e);
    }
  }
}
