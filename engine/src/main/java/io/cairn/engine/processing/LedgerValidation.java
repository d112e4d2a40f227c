package io.cairn.engine.processing;

import io.cairn.protocol.ValueDescriptor;
import io.cairn.protocol.api.AccountPlacement;
import java.nio.charset.StandardCharsets;

/**
 * The rules for command fields, each returning the rejection reason ("Expected &lt;rule&gt;, but
 * &lt;actual&gt; (&lt;context&gt;)") or null when the field is fine. Values are quoted with control
 * characters escaped and long ones shortened, so a reason is always printable.
 */
final class LedgerValidation {

  /** What a valid account id is, as the reasons say it. */
  static final String ACCOUNT_ID_RULE =
      "1 to "
          + ValueDescriptor.ACCOUNT_ID_MAX_BYTES
          + " UTF-8 bytes without control characters and without leading or trailing whitespace";

  private static final int QUOTE_MAX_CHARS = 64;

  private LedgerValidation() {}

  /** Null if {@code accountId} is a valid account id. */
  static String accountId(String field, String accountId, String context) {
    if (isValidAccountId(accountId)) {
      return null;
    }
    return "Expected "
        + field
        + " of "
        + ACCOUNT_ID_RULE
        + ", but was "
        + quote(accountId)
        + " ("
        + context
        + ")";
  }

  static boolean isValidAccountId(String accountId) {
    if (accountId == null || accountId.isEmpty()) {
      return false;
    }
    int bytes = accountId.getBytes(StandardCharsets.UTF_8).length;
    if (bytes < ValueDescriptor.ACCOUNT_ID_MIN_BYTES
        || bytes > ValueDescriptor.ACCOUNT_ID_MAX_BYTES) {
      return false;
    }
    if (Character.isWhitespace(accountId.codePointAt(0))
        || Character.isWhitespace(accountId.codePointBefore(accountId.length()))) {
      return false;
    }
    return accountId.codePoints().noneMatch(Character::isISOControl);
  }

  /** Null if {@code amount > 0}. */
  static String positiveAmount(long amount, String context) {
    return amount > 0 ? null : "Expected amount > 0, but was " + amount + " (" + context + ")";
  }

  /** Null if {@code accountId} is placed on {@code partitionId}. */
  static String placedHere(
      AccountPlacement placement, String field, String accountId, int partitionId, String context) {
    int owner = placement.partitionOf(accountId);
    if (owner == partitionId) {
      return null;
    }
    return "Expected "
        + field
        + " "
        + quote(accountId)
        + " to belong to partition "
        + partitionId
        + ", but it belongs to partition "
        + owner
        + " of "
        + placement.partitionCount()
        + " ("
        + context
        + "; send the command to partition "
        + owner
        + ")";
  }

  /** Null if {@code balance + amount} fits in a long. */
  static String creditFits(
      String field, String accountId, long balance, long amount, String context) {
    if (balance <= Long.MAX_VALUE - amount) {
      return null;
    }
    return "Expected balance of "
        + field
        + " "
        + quote(accountId)
        + " plus amount "
        + amount
        + " to be at most "
        + Long.MAX_VALUE
        + ", but the balance is "
        + balance
        + " ("
        + context
        + ")";
  }

  /** The account id in single quotes, control characters escaped, shortened when long. */
  static String quote(String value) {
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
      if (Character.isISOControl(codePoint)) {
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
