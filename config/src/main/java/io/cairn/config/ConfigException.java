package io.cairn.config;

import java.util.List;

/**
 * A configuration cannot be used. Lists every problem found, each naming the key, the bad value,
 * the allowed range and where the value came from.
 */
public class ConfigException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final transient List<String> violations;

  /**
   * @param what whose configuration, e.g. {@code "broker"}
   * @param source what was read, e.g. {@code "config file broker.yaml"}
   * @param violations every problem, one sentence each
   */
  public ConfigException(String what, String source, List<String> violations) {
    super(message(what, source, violations));
    this.violations = List.copyOf(violations);
  }

  /** Every problem, one sentence each. */
  public List<String> violations() {
    return violations;
  }

  private static String message(String what, String source, List<String> violations) {
    StringBuilder text =
        new StringBuilder("Expected a valid ")
            .append(what)
            .append(" configuration, but ")
            .append(source)
            .append(" has ")
            .append(violations.size())
            .append(violations.size() == 1 ? " problem" : " problems")
            .append(". Fix the keys below (in the file or their ")
            .append(ConfigKey.ENV_PREFIX)
            .append("* environment variables):");
    for (String violation : violations) {
      text.append("\n  - ").append(violation);
    }
    return text.toString();
  }
}
