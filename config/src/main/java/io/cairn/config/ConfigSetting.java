package io.cairn.config;

import java.util.Objects;

/**
 * One effective configuration value, as logged at start.
 *
 * @param path the key
 * @param value the value as text; {@value #REDACTED} for secrets
 * @param source where it came from: {@code file}, {@code env CAIRN_...} or {@code default}
 */
public record ConfigSetting(String path, String value, String source) {

  /** What a secret value is shown as. */
  public static final String REDACTED = "<redacted>";

  public ConfigSetting {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(source, "source");
  }

  @Override
  public String toString() {
    return path + " = " + value + " (" + source + ")";
  }
}
