package io.cairn.protocol.api;

import io.cairn.protocol.ValueDescriptor;
import java.nio.charset.StandardCharsets;

/**
 * What a valid account id is — the same rule the ledger engine applies to commands, so a client
 * edge (the gateway) can refuse a bad id before anything is written: 1 to {@link
 * ValueDescriptor#ACCOUNT_ID_MAX_BYTES} bytes of UTF-8, no control characters, no leading or
 * trailing whitespace, no unpaired surrogates.
 */
public final class AccountIdRule {

  /** The rule as messages state it. */
  public static final String RULE =
      "1 to "
          + ValueDescriptor.ACCOUNT_ID_MAX_BYTES
          + " UTF-8 bytes without control characters and without leading or trailing whitespace";

  private static final int QUOTE_MAX_CHARS = 64;

  private AccountIdRule() {}

  /** Whether {@code accountId} is valid. */
  public static boolean isValid(String accountId) {
    if (accountId == null || accountId.isEmpty()) {
      return false;
    }
    for (int i = 0; i < accountId.length(); i++) {
      char c = accountId.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < accountId.length()
          && Character.isLowSurrogate(accountId.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return false;
      }
    }
    int bytes = accountId.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > ValueDescriptor.ACCOUNT_ID_MAX_BYTES) {
      return false;
    }
    if (Character.isWhitespace(accountId.codePointAt(0))
        || Character.isWhitespace(accountId.codePointBefore(accountId.length()))) {
      return false;
    }
    return accountId.codePoints().noneMatch(Character::isISOControl);
  }

  /**
   * The violation message for field {@code field}, or {@code null} when the id is valid: "Expected
   * accountId of 1 to 128 UTF-8 bytes ..., but was '' (Deposit)".
   *
   * @param context what was being done, for the message
   */
  public static String violation(String field, String accountId, String context) {
    if (isValid(accountId)) {
      return null;
    }
    String actual =
        accountId == null
            ? "missing"
            : quote(accountId)
                + " ("
                + accountId.getBytes(StandardCharsets.UTF_8).length
                + " bytes)";
    return "Expected " + field + " of " + RULE + ", but was " + actual + " (" + context + ")";
  }

  /** The value in single quotes, control characters escaped, shortened after 64 characters. */
  public static String quote(String value) {
    if (value == null) {
      return "null";
    }
    StringBuilder quoted = new StringBuilder("'");
    int chars = 0;
    for (int i = 0; i < value.length(); ) {
      int codePoint = value.codePointAt(i);
      if (chars == QUOTE_MAX_CHARS) {
        quoted.append("...");
        break;
      }
      if (Character.isISOControl(codePoint) || Character.isSurrogate((char) codePoint)) {
        quoted.append(String.format("\\u%04x", codePoint));
      } else {
        quoted.appendCodePoint(codePoint);
      }
      chars++;
      i += Character.charCount(codePoint);
    }
    return quoted.append('\'').toString();
  }
}
