package io.cairn.config;

/**
 * A raw configuration value that does not parse or is out of range. Carries the rule and what the
 * value was, so that the reader can name the key and where the value came from.
 */
public final class ConfigValueException extends Exception {

  private static final long serialVersionUID = 1L;

  private final String rule;

  /**
   * @param rule what the value must be, e.g. {@code "an integer in [0, 1023]"}
   * @param actual what it was, e.g. {@code "'abc'"} or {@code "2000"}
   */
  public ConfigValueException(String rule, String actual) {
    super(actual, null, false, false);
    this.rule = rule;
  }

  /** What the value must be, e.g. {@code "an integer in [0, 1023]"}. */
  public String rule() {
    return rule;
  }

  /** What it was, quoted when it is the raw text. */
  public String actual() {
    return getMessage();
  }
}
