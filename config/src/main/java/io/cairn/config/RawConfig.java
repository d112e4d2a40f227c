package io.cairn.config;

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
import java.util.Objects;
import java.util.TreeMap;

/**
 * The raw (text) values of one configuration: the YAML file's keys as dotted paths, then the {@code
 * CAIRN_*} environment variables over them, each with where it came from. What may appear is given
 * by a {@link ConfigCatalogue}. Structural problems (broken YAML, unknown keys and variables, lists
 * or empty values where one value belongs, bad group ids) are added to the shared list of
 * violations; values are not parsed here ({@link ConfigValues} does that).
 *
 * <p>Call {@link #readYaml(String)} first, then {@link #readEnv(Map)}: the environment wins.
 */
public final class RawConfig {

  private final ConfigCatalogue catalogue;
  private final String sourceName;
  private final List<String> violations;
  private final Map<String, Raw> values = new LinkedHashMap<>();
  private final Map<String, Map<String, Raw>> groupValues = new HashMap<>();
  private final Map<String, Map<String, Map<String, Raw>>> groupSections = new HashMap<>();

  /**
   * @param catalogue what the configuration may hold
   * @param sourceName names the file in messages, e.g. {@code config file broker.yaml}
   * @param violations where problems are added
   */
  public RawConfig(ConfigCatalogue catalogue, String sourceName, List<String> violations) {
    this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
    this.sourceName = Objects.requireNonNull(sourceName, "sourceName");
    this.violations = Objects.requireNonNull(violations, "violations");
    for (ConfigGroup group : catalogue.groups()) {
      if (group.shape() == ConfigGroup.Shape.VALUES) {
        groupValues.put(group.path(), new LinkedHashMap<>());
      } else {
        groupSections.put(group.path(), new LinkedHashMap<>());
      }
    }
  }

  /**
   * A raw value.
   *
   * @param text as written
   * @param source where it came from, e.g. {@code set in config file broker.yaml}
   */
  public record Raw(String text, String source) {}

  /** Key path to raw value, in reading order. */
  public Map<String, Raw> values() {
    return values;
  }

  /** The catalogue this was read against. */
  public ConfigCatalogue catalogue() {
    return catalogue;
  }

  /** Names the file in messages. */
  public String sourceName() {
    return sourceName;
  }

  /**
   * The entries of a group of values: id (canonical, as its id parser prints it) to raw value, in
   * reading order.
   *
   * @throws IllegalArgumentException if the catalogue has no such group of values
   */
  public Map<String, Raw> groupValues(String path) {
    Map<String, Raw> entries = groupValues.get(path);
    if (entries == null) {
      throw new IllegalArgumentException("Expected a group of values, but " + path + " is not one");
    }
    return entries;
  }

  /**
   * The entries of a group of sections: id to (field path to raw value), both in reading order;
   * fields of the free field are {@code <freeField>.<name>}.
   *
   * @throws IllegalArgumentException if the catalogue has no such group of sections
   */
  public Map<String, Map<String, Raw>> groupSections(String path) {
    Map<String, Map<String, Raw>> entries = groupSections.get(path);
    if (entries == null) {
      throw new IllegalArgumentException(
          "Expected a group of sections, but " + path + " is not one");
    }
    return entries;
  }

  // ---- YAML -------------------------------------------------------------------------------------

  /** Reads a YAML document; an empty one leaves every key at its default. */
  public void readYaml(String text) {
    YAMLMapper mapper = new YAMLMapper(new YAMLFactory());
    mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    JsonNode root;
    try {
      root = mapper.readTree(text);
    } catch (JsonProcessingException e) {
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
      return;
    }
    if (!root.isObject()) {
      violations.add(
          "Expected a map of sections at the top level, but the file holds a "
              + kind(root)
              + " ("
              + sourceName
              + ")");
      return;
    }
    flatten("", root);
  }

  private static String locationOf(JsonProcessingException e) {
    return e.getLocation() == null
        ? ""
        : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
  }

  private static String kind(JsonNode node) {
    return node.getNodeType().name().toLowerCase(Locale.ROOT);
  }

  private void flatten(String prefix, JsonNode node) {
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      String path = prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey();
      JsonNode value = field.getValue();
      ConfigGroup group = catalogue.group(path).orElse(null);
      if (group != null) {
        readGroup(group, value);
      } else if (value.isObject()) {
        if (catalogue.isKey(path)) {
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
      } else if (catalogue.isSection(path)) {
        violations.add(
            "Expected "
                + path
                + " to be a section of keys, but it is the value '"
                + value.asText()
                + "' ("
                + sourceName
                + ")");
      } else if (!catalogue.isKey(path)) {
        unknownKey(path);
      } else {
        values.put(path, new Raw(value.asText(), "set in " + sourceName));
      }
    }
  }

  private void readGroup(ConfigGroup group, JsonNode value) {
    if (value.isNull()) {
      return; // an empty group: no entries
    }
    String source = "set in " + sourceName;
    if (value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        JsonNode item = value.get(i);
        if (group.shape() == ConfigGroup.Shape.VALUES) {
          groupValue(group, Integer.toString(i), item, source);
        } else {
          listSection(group, i, item, source);
        }
      }
    } else if (value.isObject()) {
      for (Map.Entry<String, JsonNode> entry : value.properties()) {
        if (group.shape() == ConfigGroup.Shape.VALUES) {
          groupValue(group, entry.getKey(), entry.getValue(), source);
        } else {
          mapSection(group, entry.getKey(), entry.getValue(), source);
        }
      }
    } else {
      violations.add(
          "Expected "
              + group.path()
              + " to be a map of id to "
              + (group.shape() == ConfigGroup.Shape.VALUES ? "value" : "section")
              + " (or a list), but it is '"
              + value.asText()
              + "' ("
              + sourceName
              + ")");
    }
  }

  private void groupValue(ConfigGroup group, String rawId, JsonNode value, String source) {
    if (value == null || !value.isValueNode() || value.isNull()) {
      violations.add(
          "Expected "
              + group.path()
              + "."
              + rawId
              + " to be one value, but it is "
              + (value == null || value.isNull() ? "empty" : "a " + kind(value))
              + " ("
              + source
              + ")");
      return;
    }
    String id = canonicalId(group, rawId, source);
    if (id != null) {
      groupValues.get(group.path()).put(id, new Raw(value.asText(), source));
    }
  }

  private void listSection(ConfigGroup group, int index, JsonNode item, String source) {
    if (item == null || !item.isObject()) {
      violations.add(
          "Expected item "
              + index
              + " of "
              + group.path()
              + " to be a section with an "
              + ConfigGroup.ID_FIELD
              + ", but it is "
              + (item == null || item.isNull() ? "empty" : "a " + kind(item))
              + " ("
              + source
              + ")");
      return;
    }
    JsonNode idNode = item.get(ConfigGroup.ID_FIELD);
    if (idNode == null || !idNode.isValueNode() || idNode.isNull()) {
      violations.add(
          "Expected item "
              + index
              + " of "
              + group.path()
              + " to have an "
              + ConfigGroup.ID_FIELD
              + ", but it has none ("
              + source
              + ")");
      return;
    }
    section(group, idNode.asText(), item, source);
  }

  private void mapSection(ConfigGroup group, String rawId, JsonNode value, String source) {
    if (value == null || !value.isObject()) {
      violations.add(
          "Expected "
              + group.path()
              + "."
              + rawId
              + " to be a section of fields, but it is "
              + (value == null || value.isNull() ? "empty" : "a " + kind(value))
              + " ("
              + source
              + ")");
      return;
    }
    JsonNode idNode = value.get(ConfigGroup.ID_FIELD);
    if (idNode != null && !idNode.asText().equals(rawId)) {
      violations.add(
          "Expected "
              + group.path()
              + "."
              + rawId
              + "."
              + ConfigGroup.ID_FIELD
              + " to be absent or '"
              + rawId
              + "', but it is '"
              + idNode.asText()
              + "' ("
              + source
              + ")");
      return;
    }
    section(group, rawId, value, source);
  }

  private void section(ConfigGroup group, String rawId, JsonNode node, String source) {
    String id = canonicalId(group, rawId, source);
    if (id == null) {
      return;
    }
    Map<String, Map<String, Raw>> entries = groupSections.get(group.path());
    if (entries.containsKey(id)) {
      violations.add(
          "Expected the ids of "
              + group.path()
              + " to be unique, but '"
              + id
              + "' appears twice ("
              + source
              + ")");
      return;
    }
    Map<String, Raw> fields = new LinkedHashMap<>();
    entries.put(id, fields);
    String entryPath = group.path() + "." + id;
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      String name = field.getKey();
      JsonNode value = field.getValue();
      if (name.equals(ConfigGroup.ID_FIELD)) {
        continue;
      }
      if (name.equals(group.freeField())) {
        if (value.isObject()) {
          freeFields(entryPath, name, value, fields, source);
        } else if (!value.isNull()) {
          violations.add(
              "Expected "
                  + entryPath
                  + "."
                  + name
                  + " to be a map, but it is the value '"
                  + value.asText()
                  + "' ("
                  + source
                  + ")");
        }
      } else if (group.fields().contains(name)) {
        if (value.isValueNode() && !value.isNull()) {
          fields.put(name, new Raw(value.asText(), source));
        } else {
          violations.add(
              "Expected one value for "
                  + entryPath
                  + "."
                  + name
                  + ", but it is "
                  + (value.isNull() ? "empty" : "a " + kind(value))
                  + " ("
                  + source
                  + ")");
        }
      } else {
        violations.add(
            "Expected only known fields in "
                + entryPath
                + ", but "
                + name
                + " is not one ("
                + source
                + "); did you mean "
                + KeySuggestions.closest(name, knownFields(group))
                + "?");
      }
    }
  }

  private void freeFields(
      String entryPath, String prefix, JsonNode node, Map<String, Raw> fields, String source) {
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      String path = prefix + "." + field.getKey();
      JsonNode value = field.getValue();
      if (value.isObject()) {
        freeFields(entryPath, path, value, fields, source);
      } else if (value.isValueNode() && !value.isNull()) {
        fields.put(path, new Raw(value.asText(), source));
      } else {
        violations.add(
            "Expected one value for "
                + entryPath
                + "."
                + path
                + ", but it is "
                + (value.isNull() ? "empty" : "a " + kind(value))
                + " ("
                + source
                + ")");
      }
    }
  }

  private static List<String> knownFields(ConfigGroup group) {
    List<String> known = new ArrayList<>(group.fields());
    known.add(ConfigGroup.ID_FIELD);
    if (group.freeField() != null) {
      known.add(group.freeField());
    }
    return known;
  }

  /** The id as the group's id parser prints it, or {@code null} (a violation) when it is bad. */
  private String canonicalId(ConfigGroup group, String rawId, String source) {
    try {
      return String.valueOf(group.idParser().parse(rawId.trim()));
    } catch (ConfigValueException e) {
      violations.add(
          "Expected the ids of "
              + group.path()
              + " to be "
              + e.rule()
              + ", but one is "
              + e.actual()
              + " ("
              + source
              + ")");
      return null;
    }
  }

  private void unknownKey(String path) {
    List<String> known = new ArrayList<>();
    catalogue.keys().forEach(key -> known.add(key.path()));
    catalogue.groups().forEach(group -> known.add(group.path()));
    violations.add(
        "Expected only known keys, but "
            + path
            + " is not one ("
            + sourceName
            + "); did you mean "
            + KeySuggestions.closest(path, known)
            + "?");
  }

  // ---- environment ------------------------------------------------------------------------------

  /**
   * Reads the {@code CAIRN_*} variables of {@code env} over what was read so far. A variable of a
   * known section that names no key (or no group entry) is a violation; other {@code CAIRN_*}
   * variables (launch scripts') are ignored.
   */
  public void readEnv(Map<String, String> env) {
    Map<String, String> envToPath = new HashMap<>();
    for (ConfigKey<?> key : catalogue.keys()) {
      envToPath.put(key.envName(), key.path());
    }
    new TreeMap<>(env)
        .forEach(
            (name, value) -> {
              if (!name.startsWith(ConfigKey.ENV_PREFIX) || value == null) {
                return;
              }
              String source = "set by environment variable " + name;
              String path = envToPath.get(name);
              if (path != null) {
                values.put(path, new Raw(value, source));
                return;
              }
              for (ConfigGroup group : catalogue.groups()) {
                String prefix = group.envName() + "_";
                if (name.startsWith(prefix) && name.length() > prefix.length()) {
                  envGroupEntry(group, name, name.substring(prefix.length()), value, source);
                  return;
                }
              }
              String rest = name.substring(ConfigKey.ENV_PREFIX.length());
              int underscore = rest.indexOf('_');
              String section =
                  (underscore < 0 ? rest : rest.substring(0, underscore)).toLowerCase(Locale.ROOT);
              if (catalogue.sections().contains(section)) {
                unknownVariable(name, envToPath);
              }
            });
  }

  private void unknownVariable(String name, Map<String, String> envToPath) {
    List<String> names = new ArrayList<>(envToPath.keySet());
    for (ConfigGroup group : catalogue.groups()) {
      names.add(
          group.envName()
              + (group.shape() == ConfigGroup.Shape.VALUES ? "_<id>" : "_<ID>_<FIELD>"));
    }
    String closest = KeySuggestions.closest(name, names.stream().sorted().toList());
    violations.add(
        "Expected environment variable "
            + name
            + " to name a configuration key, but there is no such key; did you mean "
            + closest
            + (envToPath.containsKey(closest) ? " (" + envToPath.get(closest) + ")" : "")
            + "?");
  }

  private void envGroupEntry(
      ConfigGroup group, String name, String rest, String value, String source) {
    if (group.shape() == ConfigGroup.Shape.VALUES) {
      Map<String, Raw> entries = groupValues.get(group.path());
      String id = envId(group, entries.keySet(), rest, source);
      if (id != null) {
        entries.put(id, new Raw(value, source));
      }
      return;
    }
    int underscore = rest.indexOf('_');
    if (underscore <= 0 || underscore == rest.length() - 1) {
      violations.add(
          "Expected environment variable "
              + name
              + " to name a field of an entry of "
              + group.path()
              + " ("
              + group.envName()
              + "_<ID>_<FIELD>), but it names none");
      return;
    }
    Map<String, Map<String, Raw>> entries = groupSections.get(group.path());
    String id = envId(group, entries.keySet(), rest.substring(0, underscore), source);
    if (id == null) {
      return;
    }
    Map<String, Raw> fields = entries.computeIfAbsent(id, ignored -> new LinkedHashMap<>());
    String fieldName = envField(group, fields, rest.substring(underscore + 1));
    if (fieldName == null) {
      List<String> known = new ArrayList<>();
      for (String field : group.fields()) {
        known.add(envSegment(field));
      }
      if (group.freeField() != null) {
        known.add(envSegment(group.freeField()) + "_<NAME>");
      }
      violations.add(
          "Expected environment variable "
              + name
              + " to name a field of "
              + group.path()
              + "."
              + id
              + ", but there is no such field; did you mean "
              + group.envName()
              + "_"
              + rest.substring(0, underscore)
              + "_"
              + KeySuggestions.closest(rest.substring(underscore + 1), known)
              + "?");
      return;
    }
    fields.put(fieldName, new Raw(value, source));
  }

  /** An existing id that matches case-insensitively, else the canonical lower-cased one. */
  private String envId(ConfigGroup group, Iterable<String> existing, String envId, String source) {
    for (String id : existing) {
      if (id.equalsIgnoreCase(envId)) {
        return id;
      }
    }
    return canonicalId(group, envId.toLowerCase(Locale.ROOT), source);
  }

  /**
   * The field a variable's last part names: a known field; or a field of the free field, matched
   * case-insensitively against those the file set ({@code _} for {@code .}), else lower-cased.
   */
  private static String envField(ConfigGroup group, Map<String, Raw> fields, String envField) {
    for (String field : group.fields()) {
      if (envSegment(field).equals(envField)) {
        return field;
      }
    }
    String free = group.freeField();
    if (free == null || !envField.startsWith(envSegment(free) + "_")) {
      return null;
    }
    for (String field : fields.keySet()) {
      if (field.startsWith(free + ".") && envSegment(field).equals(envField)) {
        return field;
      }
    }
    String name = envField.substring(envSegment(free).length() + 1);
    return name.isEmpty() ? null : free + "." + name.toLowerCase(Locale.ROOT);
  }

  private static String envSegment(String path) {
    return path.replace('.', '_').toUpperCase(Locale.ROOT);
  }
}
