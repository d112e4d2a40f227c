package io.cairn.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

/** Asserts that what could reach a log, a caller or a stack trace holds none of the secrets. */
final class NoSecrets {

  private NoSecrets() {}

  /**
   * Fails when {@code shown}'s text (its {@code toString()}; for a throwable also its message,
   * causes and suppressed) contains one of {@code secrets}.
   */
  static void assertNoSecretIn(Object shown, String... secrets) {
    List<String> texts = new ArrayList<>();
    texts.add(String.valueOf(shown));
    if (shown instanceof Throwable thrown) {
      for (Throwable t = thrown; t != null; t = t.getCause()) {
        texts.add(String.valueOf(t.getMessage()));
        texts.add(t.toString());
        for (Throwable suppressed : t.getSuppressed()) {
          texts.add(suppressed.toString());
        }
      }
    }
    for (String text : texts) {
      for (String secret : secrets) {
        assertThat(secret).as("a secret to look for").isNotBlank();
        assertThat(text).as("what is shown").doesNotContain(secret);
      }
    }
  }
}
