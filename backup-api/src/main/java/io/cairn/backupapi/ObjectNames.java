package io.cairn.backupapi;

import java.util.Optional;

/**
 * The rule for file names inside a backup (in a {@link Backup} and in a manifest): a relative,
 * '/'-separated path of at most 1024 characters whose segments are neither empty, {@code "."} nor
 * {@code ".."}, with no backslash and no control character. A name that follows it cannot point
 * outside the directory it is resolved against, so a hostile manifest cannot make restore write
 * elsewhere.
 */
public final class ObjectNames {

  public static final int MAX_LENGTH = 1024;

  private ObjectNames() {}

  /** Why {@code name} breaks the rule, or empty if it follows it. */
  public static Optional<String> violation(String name) {
    if (name == null || name.isEmpty()) {
      return Optional.of("it is empty");
    }
    if (name.length() > MAX_LENGTH) {
      return Optional.of("it is longer than " + MAX_LENGTH + " characters");
    }
    if (name.startsWith("/")) {
      return Optional.of("it is absolute");
    }
    if (name.indexOf('\\') >= 0) {
      return Optional.of("it contains a backslash");
    }
    for (int i = 0; i < name.length(); i++) {
      if (Character.isISOControl(name.charAt(i))) {
        return Optional.of("it contains a control character");
      }
    }
    if (name.length() >= 2 && name.charAt(1) == ':' && Character.isLetter(name.charAt(0))) {
      return Optional.of("it starts with a drive letter");
    }
    for (String segment : name.split("/", -1)) {
      if (segment.isEmpty()) {
        return Optional.of("it has an empty segment");
      }
      if (segment.equals("..")) {
        return Optional.of("it has a '..' segment");
      }
      if (segment.equals(".")) {
        return Optional.of("it has a '.' segment");
      }
    }
    return Optional.empty();
  }

  /**
   * @throws IllegalArgumentException naming the bad name and {@code context} if it breaks the rule
   */
  public static String requireValid(String name, String context) {
    violation(name)
        .ifPresent(
            why -> {
              throw new IllegalArgumentException(
                  "Expected a relative object name without '..', '.', empty segments, backslashes "
                      + "or control characters, but '"
                      + name
                      + "' is not: "
                      + why
                      + " ("
                      + context
                      + ")");
            });
    return name;
  }
}
