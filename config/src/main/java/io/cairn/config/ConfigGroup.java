package io.cairn.config;

import java.util.List;
import java.util.Objects;

/**
 * A map-valued key of a configuration file: entries named by an id, each either one value ({@link
 * Shape#VALUES}, e.g. {@code cluster.members.<nodeId>: host:port}) or a small section of fields
 * ({@link Shape#SECTIONS}, e.g. {@code exporters.<id>: {type: jsonl, args: {...}}}).
 *
 * <p>In YAML a group is a map of id to entry, or a list: a list of values takes the index as the
 * id; a list of sections takes each item's {@value #ID_FIELD} field. Environment variables: {@code
 * CAIRN_<PATH>_<ID>} for a value, {@code CAIRN_<PATH>_<ID>_<FIELD>} for a field of a section (so
 * section ids cannot contain {@code _}); ids match case-insensitively.
 *
 * @param path the dotted path of the group, e.g. {@code cluster.members}
 * @param shape one value or a section per entry
 * @param idParser checks every id; its rule names what ids must be
 * @param fields the known fields of a section (besides {@value #ID_FIELD}); empty for values
 * @param freeField a field of a section whose nested keys are free-form (an exporter's {@code
 *     args}), read as dotted sub-paths; {@code null} for none
 * @param description one line for the README
 */
public record ConfigGroup(
    String path,
    Shape shape,
    ValueParser<?> idParser,
    List<String> fields,
    String freeField,
    String description) {

  /** The field of a list item that names a section's id. */
  public static final String ID_FIELD = "id";

  /** What one entry of a group holds. */
  public enum Shape {
    /** One value per id. */
    VALUES,
    /** A section of fields per id. */
    SECTIONS
  }

  public ConfigGroup {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(idParser, "idParser");
    Objects.requireNonNull(description, "description");
    fields = List.copyOf(fields);
    if (shape == Shape.VALUES && (!fields.isEmpty() || freeField != null)) {
      throw new IllegalArgumentException(
          "Expected no fields for a group of values, but " + path + " has " + fields);
    }
  }

  /** A group of one value per id: {@code <path>.<id>: value}. */
  public static ConfigGroup values(String path, ValueParser<?> idParser, String description) {
    return new ConfigGroup(path, Shape.VALUES, idParser, List.of(), null, description);
  }

  /** A group of sections per id: {@code <path>.<id>: {field: value, freeField: {...}}}. */
  public static ConfigGroup sections(
      String path,
      ValueParser<?> idParser,
      List<String> fields,
      String freeField,
      String description) {
    return new ConfigGroup(path, Shape.SECTIONS, idParser, fields, freeField, description);
  }

  /** The environment variable prefix of this group's entries, e.g. {@code CAIRN_EXPORTERS}. */
  public String envName() {
    return ConfigKey.envName(path);
  }
}
