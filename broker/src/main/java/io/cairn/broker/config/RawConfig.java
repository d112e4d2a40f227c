package io.cairn.broker.config;

import static io.cairn.broker.config.BrokerConfigKeys.MEMBERS;
import static io.cairn.broker.config.BrokerConfigKeys.SECTIONS;
import static io.cairn.broker.config.BrokerConfigKeys.allWithS3;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The raw (text) values of a broker configuration: the YAML file's keys as dotted paths, then the
 * {@code CAIRN_*} environment variables over them, each with where it came from. Structural
 * problems (broken YAML, unknown keys and variables, lists or empty values where one value
 * belongs, bad member ids) are added to the shared list of violations; values are not parsed here
 * ({@link BrokerConfigReader} does that).
 */
final class RawConfig {

  private static final Pattern MEMBER_ENV =
      Pattern.compile(Pattern.quote(ConfigKey.envName(MEMBERS)) + "_(.+)");
  private static final int NODE_ID_MAX = 1023;

  private final String sourceName;
  private final List<String> violations;
  private final Map<String, Raw> values = new LinkedHashMap<>();
  private final Map<Integer, Raw> members = new TreeMap<>();

  /**
   * @param sourceName names the file in messages
   * @param violations where problems are added
   */
  RawConfig(final String sourceName, final List<String> violations) {
    this.sourceName = sourceName;
    this.violations = violations;
  }

  /** Key path to raw value; mutable, in reading order. */
  Map<String, Raw> values() {
    return values;
  }

  /** Member node id to raw address; mutable. */
  Map<Integer, Raw> members() {
    return members;
  }

  /**
   * A raw value.
   *
   * @param text as written
   * @param source where it came from, e.g. {@code set in config file broker.yaml}
   */
  record Raw(String text, String source) {}

  void readYaml(final String text) {
    final YAMLMapper mapper = new YAMLMapper(new YAMLFactory());
    mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    final JsonNode root;
    try {
      root = mapper.readTree(text);
    } catch (final JsonProcessingException e) {
      violations.add(
          "Expected valid YAML, but "
              + e.getOriginalMessage()
              + locationOf(e)
              + " ("
              + sourceName
              + ")");
      return;
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      return; // an empty file: every key at its default
    }
    if (!root.isObject()) {
      violations.add(
          "Expected a map of sections at the top level, but the file holds a "
              + root.getNodeType().name().toLowerCase(Locale.ROOT)
              + " ("
              + sourceName
              + ")");
      return;
    }
    flatten("", root);
  }

  private static String locationOf(final JsonProcessingException e) {
    return e.getLocation() == null
        ? ""
        : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
  }

  private void flatten(final String prefix, final JsonNode node) {
    for (final Map.Entry<String, JsonNode> field : node.properties()) {
      final String path = prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey();
      final JsonNode value = field.getValue();
      if (path.equals(MEMBERS)) {
        readMembers(value);
      } else if (value.isObject()) {
        if (isKey(path)) {
          violations.add(
              "Expected one value for " + path + ", but it is a map (" + sourceName + ")");
        } else {
          flatten(path, value);
        }
      } else if (value.isArray()) {
        violations.add(
            "Expected one value for " + path + ", but it is a list (" + sourceName + ")");
      } else if (value.isNull()) {
        violations.add(
            "Expected a value for "
                + path
                + ", but it is empty ("
                + sourceName
                + "). Remove the key to use its default");
      } else if (isSection(path)) {
        violations.add(
            "Expected "
                + path
                + " to be a section of keys, but it is the value '"
                + value.asText()
                + "' ("
                + sourceName
                + ")");
      } else if (!isKey(path)) {
        unknownKey(path);
      } else {
        values.put(path, new Raw(value.asText(), "set in " + sourceName));
      }
    }
  }

  private void readMembers(final JsonNode value) {
    if (value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        member(Integer.toString(i), value.get(i), "set in " + sourceName);
      }
    } else if (value.isObject()) {
      for (final Map.Entry<String, JsonNode> field : value.properties()) {
        member(field.getKey(), field.getValue(), "set in " + sourceName);
      }
    } else if (!value.isNull()) {
      violations.add(
          "Expected "
              + MEMBERS
              + " to be a map of node id to host:port (or a list, in node id order), but it is '"
              + value.asText()
              + "' ("
              + sourceName
              + ")");
    }
  }

  private void member(final String id, final JsonNode value, final String source) {
    if (value == null || !value.isValueNode() || value.isNull()) {
      violations.add(
          "Expected "
              + MEMBERS
              + "."
              + id
              + " to be host:port, but it is "
              + (value == null || value.isNull() ? "empty" : "a " + value.getNodeType())
              + " ("
              + source
              + ")");
      return;
    }
    member(id, value.asText(), source);
  }

  private void member(final String id, final String address, final String source) {
    final int nodeId;
    try {
      nodeId = Integer.parseInt(id.trim());
    } catch (final NumberFormatException e) {
      violations.add(
          "Expected the keys of "
              + MEMBERS
              + " to be node ids in [0, "
              + NODE_ID_MAX
              + "], but one is '"
              + id
              + "' ("
              + source
              + ")");
      return;
    }
    if (nodeId < 0 || nodeId > NODE_ID_MAX) {
      violations.add(
          "Expected the keys of "
              + MEMBERS
              + " to be node ids in [0, "
              + NODE_ID_MAX
              + "], but one is "
              + nodeId
              + " ("
              + source
              + ")");
      return;
    }
    members.put(nodeId, new Raw(address, source));
  }

  void readEnv(final Map<String, String> env) {
    final Map<String, String> envToPath = new HashMap<>();
    for (final ConfigKey<?> key : allWithS3()) {
      envToPath.put(key.envName(), key.path());
    }
    new TreeMap<>(env)
        .forEach(
            (name, value) -> {
              if (!name.startsWith(ConfigKey.ENV_PREFIX) || value == null) {
                return;
              }
              final String source = "set by environment variable " + name;
              final String path = envToPath.get(name);
              if (path != null) {
                values.put(path, new Raw(value, source));
                return;
              }
              final Matcher member = MEMBER_ENV.matcher(name);
              if (member.matches()) {
                member(member.group(1), value, source);
                return;
              }
              final String rest = name.substring(ConfigKey.ENV_PREFIX.length());
              final int underscore = rest.indexOf('_');
              final String section =
                  (underscore < 0 ? rest : rest.substring(0, underscore)).toLowerCase(Locale.ROOT);
              if (SECTIONS.contains(section)) {
                final List<String> names = new ArrayList<>(envToPath.keySet());
                names.add(ConfigKey.envName(MEMBERS) + "_<nodeId>");
                final String closest =
                    KeySuggestions.closest(name, names.stream().sorted().toList());
                violations.add(
                    "Expected environment variable "
                        + name
                        + " to name a configuration key, but there is no such key; did you mean "
                        + closest
                        + (envToPath.containsKey(closest)
                            ? " (" + envToPath.get(closest) + ")"
                            : "")
                        + "?");
              }
            });
  }

  private static boolean isKey(final String path) {
    return allWithS3().stream().anyMatch(key -> key.path().equals(path));
  }

  private static boolean isSection(final String path) {
    if (SECTIONS.contains(path)) {
      return true;
    }
    return allWithS3().stream().anyMatch(key -> key.path().startsWith(path + "."));
  }

  private void unknownKey(final String path) {
    final List<String> known = new ArrayList<>();
    allWithS3().forEach(key -> known.add(key.path()));
    known.add(MEMBERS);
    violations.add(
        "Expected only known keys, but "
            + path
            + " is not one ("
            + sourceName
            + "); did you mean "
            + KeySuggestions.closest(path, known)
            + "?");
  }
}
