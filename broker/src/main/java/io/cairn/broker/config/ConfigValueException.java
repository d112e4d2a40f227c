package io.cairn.broker.config;

/**
 * A raw configuration value that does not parse or is out of range. Carries the rule and what the
 * value was, so that the reader can name the key and where the value came from.
 */
final class ConfigValueException extends Exception {

  private static final long serialVersionUID = 1L;

  private final String rule;

  /**
   * @param rule what the value must be, e.g. {@code "an integer in [0, 1023]"}
   * @param actual what it was, e.g. {@code "'abc'"} or {@code "2000"}
   */
  ConfigValueException(final String rule, final String actual) {
    super(actual, null, false, false);
    this.rule = rule;
  }

  String rule() {
    return rule;
  }

  String actual() {
    return getMessage();
  }
}
