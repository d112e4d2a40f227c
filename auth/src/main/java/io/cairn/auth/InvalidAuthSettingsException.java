package io.cairn.auth;

import java.util.List;

/**
 * Authentication settings that cannot be used: every problem at once, each naming its key, the bad
 * value (never a secret) and what is allowed, so the operator fixes them in one pass.
 */
public final class InvalidAuthSettingsException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  InvalidAuthSettingsException(List<String> problems) {
    super(
        "Expected valid authentication settings, but "
            + (problems.size() == 1 ? "one is not: " : problems.size() + " are not: ")
            + String.join("; ", problems)
            + ". Fix them in the configuration file or its CAIRN_* environment variables");
    this.problems = List.copyOf(problems);
  }

  /** Each problem, e.g. {@code "Expected security.auth.jwt.clockSkew in [0s, 5m], but was 1h"}. */
  public List<String> problems() {
    return problems;
  }
}
