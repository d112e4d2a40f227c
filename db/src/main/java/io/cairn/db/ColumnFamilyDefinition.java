package io.cairn.db;

import java.util.regex.Pattern;

/**
 * Names a column family and says whether its contents count in the {@link StateDigest}.
 *
 * <p>Modules usually declare their families as an enum implementing this interface (the constant
 * names, from the final {@code Enum.name()}, are then the family names); {@link #digested(String)}
 * and {@link #excluded(String)} make one-off definitions. Bookkeeping that differs between a state
 * and its restored copy without the state being different (for example the record of the checkpoint
 * being taken) belongs in an {@linkplain #includedInDigest() excluded} family.
 *
 * <p>Names are 1 to 64 characters from {@code [A-Za-z0-9_.-]}; {@code default} and names starting
 * with {@code _cairn} are reserved. Two definitions with the same name are the same family.
 */
public interface ColumnFamilyDefinition {

  /** Allowed names. */
  Pattern NAME_PATTERN = Pattern.compile("[A-Za-z0-9_.\\-]{1,64}");

  /** Prefix of the names the database keeps for itself. */
  String RESERVED_PREFIX = "_cairn";

  /** The family's name on disk; part of every tuple hash of the family. */
  String name();

  /** True if the family's key/value pairs count in the state digest. */
  boolean includedInDigest();

  /** A family that counts in the state digest. */
  static ColumnFamilyDefinition digested(String name) {
    return new Simple(name, true);
  }

  /** A family that never changes the state digest. */
  static ColumnFamilyDefinition excluded(String name) {
    return new Simple(name, false);
  }

  /**
   * Checks a family name.
   *
   * @throws IllegalArgumentException if the name is malformed or reserved
   */
  static void validateName(String name) {
    if (name == null || !NAME_PATTERN.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "Expected a column family name of 1 to 64 characters from [A-Za-z0-9_.-], but was '"
              + name
              + "'");
    }
    if (name.equals("default") || name.startsWith(RESERVED_PREFIX)) {
      throw new IllegalArgumentException(
          "Expected a column family name other than 'default' and not starting with '"
              + RESERVED_PREFIX
              + "', but was '"
              + name
              + "' (reserved)");
    }
  }

  /** A plain definition. */
  record Simple(String name, boolean includedInDigest) implements ColumnFamilyDefinition {
    public Simple {
      validateName(name);
    }
  }
}
