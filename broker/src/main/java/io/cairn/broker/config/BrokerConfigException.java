package io.cairn.broker.config;

import java.util.List;

/**
 * The configuration cannot be used. Lists every problem found, each naming the key, the bad value,
 * the allowed range and where the value came from.
 */
public final class BrokerConfigException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final transient List<String> violations;

  public BrokerConfigException(final String source, final List<String> violations) {
    super(message(source, violations));
    this.violations = List.copyOf(violations);
  }

  /** Every problem, one sentence each. */
  public List<String> violations() {
    return violations;
  }

  private static String message(final String source, final List<String> violations) {
    final StringBuilder text =
        new StringBuilder("Expected a valid broker configuration, but ")
            .append(source)
            .append(" has ")
            .append(violations.size())
            .append(violations.size() == 1 ? " problem" : " problems")
            .append(". Fix the keys below (in the file or their CAIRN_* environment variables):");
    for (final String violation : violations) {
      text.append("\n  - ").append(violation);
    }
    return text.toString();
  }
}
