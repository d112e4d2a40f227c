package io.cairn.auth.apikey;

import java.util.List;

/**
 * A credentials file that cannot be used: missing, unreadable, open to group or others, too large,
 * or with lines not in the format. Every bad line is named by its number with what is wrong; no
 * line's text is ever shown, since it may hold a hash or a pasted secret.
 */
public final class InvalidApiKeyFileException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  InvalidApiKeyFileException(String message, List<String> problems) {
    super(message);
    this.problems = List.copyOf(problems);
  }

  InvalidApiKeyFileException(String message) {
    this(message, List.of(message));
  }

  /** Each problem: one per bad line ({@code "line 3: Expected ..."}), or the one about the file. */
  public List<String> problems() {
    return problems;
  }
}
