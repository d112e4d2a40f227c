package io.cairn.backups3;

import java.util.Arrays;
import java.util.Locale;

/**
 * Whether manifest transitions use conditional writes ({@code If-None-Match: *} to create, {@code
 * If-Match: <etag>} to move IN_PROGRESS to COMPLETED or FAILED).
 */
public enum ConditionalWrites {
  /** Probe the server once at start; use conditions if it honours them, else read-check-write. */
  AUTO,
  /** Refuse to start unless the server honours both conditions. */
  REQUIRED,
  /** Always read-check-write, serialised per backup within this process only. */
  DISABLED;

  /** The name used in configuration. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @throws IllegalArgumentException naming the allowed values
   */
  public static ConditionalWrites fromConfigName(String name) {
    for (ConditionalWrites value : values()) {
      if (value.configName().equals(name)) {
        return value;
      }
    }
    throw new IllegalArgumentException(
        "Expected one of "
            + Arrays.stream(values()).map(ConditionalWrites::configName).toList()
            + ", but was '"
            + name
            + "'");
  }
}
