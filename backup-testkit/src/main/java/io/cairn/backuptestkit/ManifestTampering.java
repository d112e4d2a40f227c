package io.cairn.backuptestkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cairn.backupapi.manifest.ManifestChecksum;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Edits stored manifest JSON the way an attacker or a buggy writer would, and seals it again with a
 * matching {@code manifestChecksum}, so that a test proves a validation other than the checksum
 * (hostile names, wrong ids, sizes, versions). Output is indented like {@code ManifestCodec}'s, so
 * text edits after a rewrite still find {@code "key" : value}.
 */
public final class ManifestTampering {

  private static final ObjectMapper MAPPER =
      new ObjectMapper().configure(SerializationFeature.INDENT_OUTPUT, true);

  private ManifestTampering() {}

  /**
   * Seals {@code json} with the checksum of its content as it is now.
   *
   * @throws IllegalArgumentException unless {@code json} is a JSON object
   */
  public static byte[] reseal(byte[] json) {
    return rewrite(json, tree -> {});
  }

  /** {@link #reseal(byte[])} for JSON text. */
  public static String reseal(String json) {
    return new String(reseal(json.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
  }

  /** Applies {@code edit} to the manifest's JSON tree, then seals it. */
  public static byte[] rewrite(byte[] json, Consumer<ObjectNode> edit) {
    ObjectNode tree = tree(json);
    edit.accept(tree);
    return write(ManifestChecksum.seal(tree));
  }

  /** {@link #rewrite(byte[], Consumer)} for JSON text. */
  public static String rewrite(String json, Consumer<ObjectNode> edit) {
    return new String(rewrite(json.getBytes(StandardCharsets.UTF_8), edit), StandardCharsets.UTF_8);
  }

  /**
   * Rewrites {@code json} as a manifest of an older format that had no checksum: version set to
   * {@code version}, {@code manifestChecksum} removed, nothing else changed.
   */
  public static byte[] withoutChecksum(byte[] json, String version) {
    ObjectNode tree = tree(json);
    tree.remove(ManifestChecksum.FIELD);
    tree.put("manifestVersion", version);
    return write(tree);
  }

  private static ObjectNode tree(byte[] json) {
    JsonNode tree;
    try {
      tree = MAPPER.readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "Expected manifest JSON to tamper with, but it cannot be parsed: " + e.getMessage(), e);
    }
    if (!(tree instanceof ObjectNode object)) {
      throw new IllegalArgumentException(
          "Expected a manifest JSON object to tamper with, but it is " + tree);
    }
    return object;
  }

  private static byte[] write(ObjectNode tree) {
    try {
      return MAPPER.writeValueAsBytes(tree);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
