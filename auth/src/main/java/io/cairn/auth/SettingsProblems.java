package io.cairn.auth;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Collects what is wrong with settings, so that every problem is reported at once. */
final class SettingsProblems {

  private final String keyPrefix;
  private final List<String> problems = new ArrayList<>();

  SettingsProblems(String keyPrefix) {
    this.keyPrefix = keyPrefix;
  }

  /** The key as the operator writes it: the prefix ({@code gateway.}) and the key. */
  String key(String key) {
    return keyPrefix + key;
  }

  void add(String problem) {
    problems.add(problem);
  }

  void durationIn(String key, Duration value, Duration min, Duration max) {
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      add(
          "Expected "
              + key(key)
              + " in ["
              + format(min)
              + ", "
              + format(max)
              + "], but was "
              + format(value));
    }
  }

  /** A claim name or value: 1 to 256 characters, no control characters. */
  void claimName(String key, String value) {
    if (!isClaimName(value)) {
      add(
          "Expected "
              + key(key)
              + " to be 1 to 256 characters without control characters, but was "
              + quote(value));
    }
  }

  static boolean isClaimName(String value) {
    return !value.isBlank()
        && value.length() <= 256
        && value.chars().noneMatch(Character::isISOControl);
  }

  void throwIfAny() {
    if (!problems.isEmpty()) {
      throw new InvalidAuthSettingsException(problems);
    }
  }

  static String quote(String value) {
    return SafeText.quote(value);
  }

  /** A duration as configuration files write it: {@code 60s}, {@code 10m}, {@code 500ms}. */
  static String format(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    long ms = d.toMillis();
    if (d.getNano() % 1_000_000 != 0) {
      return d.toString();
    }
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1_000 == 0) {
      return ms / 1_000 + "s";
    }
    return ms + "ms";
  }
}
