package io.cairn.backupapi;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which checkpoint ids a listing matches: any, exactly one, or every id whose decimal form starts
 * with a prefix. Parsed from {@code "*"}, {@code "12"} and {@code "12*"}.
 */
public final class CheckpointPattern {

  private static final Pattern EXACT = Pattern.compile("[1-9][0-9]*");
  private static final Pattern PREFIX = Pattern.compile("([1-9][0-9]*)\\*");
  private static final CheckpointPattern ANY = new CheckpointPattern(null, null);

  private final Long exactId;
  private final String prefix;

  private CheckpointPattern(Long exactId, String prefix) {
    this.exactId = exactId;
    this.prefix = prefix;
  }

  /** Matches every checkpoint id. */
  public static CheckpointPattern any() {
    return ANY;
  }

  /** Matches exactly {@code checkpointId} ({@code >= 1}). */
  public static CheckpointPattern exact(long checkpointId) {
    if (checkpointId < 1) {
      throw new IllegalArgumentException(
          "Expected checkpointId >= 1, but was " + checkpointId + " (checkpoint pattern)");
    }
    return new CheckpointPattern(checkpointId, null);
  }

  /** Matches every id whose decimal form starts with {@code digits} (no leading zero). */
  public static CheckpointPattern prefix(String digits) {
    if (digits == null || !EXACT.matcher(digits).matches()) {
      throw new IllegalArgumentException(
          "Expected a checkpoint id prefix of decimal digits without a leading zero, but was '"
              + digits
              + "' (checkpoint pattern)");
    }
    return new CheckpointPattern(null, digits);
  }

  /**
   * Parses {@code "*"} (any), {@code "12"} (exact) or {@code "12*"} (prefix).
   *
   * @throws IllegalArgumentException naming the pattern if it is none of these
   */
  public static CheckpointPattern parse(String pattern) {
    if ("*".equals(pattern)) {
      return ANY;
    }
    if (pattern != null && EXACT.matcher(pattern).matches()) {
      try {
        return exact(Long.parseLong(pattern));
      } catch (NumberFormatException e) {
        throw invalid(pattern);
      }
    }
    if (pattern != null) {
      var matcher = PREFIX.matcher(pattern);
      if (matcher.matches()) {
        return prefix(matcher.group(1));
      }
    }
    throw invalid(pattern);
  }

  private static IllegalArgumentException invalid(String pattern) {
    return new IllegalArgumentException(
        "Expected a checkpoint id pattern '*', '<id>' or '<digits>*' with a positive id, but was '"
            + pattern
            + "' (checkpoint pattern)");
  }

  public boolean matches(long checkpointId) {
    if (exactId != null) {
      return exactId == checkpointId;
    }
    if (prefix != null) {
      return Long.toString(checkpointId).startsWith(prefix);
    }
    return true;
  }

  /** The id, when this pattern matches exactly one. */
  public Optional<Long> exactId() {
    return Optional.ofNullable(exactId);
  }

  /** The decimal prefix, when this pattern is a prefix. */
  public Optional<String> prefix() {
    return Optional.ofNullable(prefix);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CheckpointPattern other
        && java.util.Objects.equals(exactId, other.exactId)
        && java.util.Objects.equals(prefix, other.prefix);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(exactId, prefix);
  }

  @Override
  public String toString() {
    if (exactId != null) {
      return exactId.toString();
    }
    return prefix != null ? prefix + "*" : "*";
  }
}
