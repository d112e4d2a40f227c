package io.cairn.client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The client's own input checks, done before anything is sent so that a bad argument fails fast
 * with a message naming the field, the rule and the value. The account-id rule is the ledger
 * engine's (the gateway applies the same one); the client does not depend on the broker's modules,
 * so it is restated here and a test compares both.
 */
final class Arguments {
  /** The longest account id in UTF-8 bytes. */
  static final int ACCOUNT_ID_MAX_BYTES = 128;

  static final String ACCOUNT_ID_RULE =
      "1 to "
          + ACCOUNT_ID_MAX_BYTES
          + " UTF-8 bytes without control characters and without leading or trailing whitespace";

  /** The largest page the gateway serves. */
  static final int PAGE_SIZE_MAX = 1000;

  private static final int QUOTE_MAX_CHARS = 64;

  private final String operation;
  private final List<String> violations = new ArrayList<>();

  private Arguments(String operation) {
    this.operation = operation;
  }

  /** Collects violations of one call, named in messages as {@code operation}. */
  static Arguments of(String operation) {
    return new Arguments(operation);
  }

  Arguments accountId(String field, String accountId) {
    if (!isValidAccountId(accountId)) {
      String actual =
          accountId == null
              ? "missing"
              : quote(accountId)
                  + " ("
                  + accountId.getBytes(StandardCharsets.UTF_8).length
                  + " bytes)";
      add("Expected " + field + " of " + ACCOUNT_ID_RULE + ", but was " + actual);
    }
    return this;
  }

  Arguments distinct(String fromAccountId, String toAccountId) {
    if (violations.isEmpty() && fromAccountId.equals(toAccountId)) {
      add("Expected fromAccountId and toAccountId to differ, but both are " + quote(fromAccountId));
    }
    return this;
  }

  Arguments amount(long amount) {
    if (amount <= 0) {
      add("Expected amount > 0, but was " + amount);
    }
    return this;
  }

  Arguments backupId(long backupId) {
    if (backupId < 1) {
      add("Expected backupId >= 1, but was " + backupId);
    }
    return this;
  }

  Arguments pageSize(int pageSize) {
    return upToPageMax("pageSize", pageSize);
  }

  /** How many restore points to list: as a page size. */
  Arguments limit(int limit) {
    return upToPageMax("limit", limit);
  }

  private Arguments upToPageMax(String field, int value) {
    if (value < 0 || value > PAGE_SIZE_MAX) {
      add(
          "Expected "
              + field
              + " in [0, "
              + PAGE_SIZE_MAX
              + "] (0 = the gateway's default), but was "
              + value);
    }
    return this;
  }

  Arguments notNull(String field, Object value) {
    if (value == null) {
      add("Expected " + field + " to be given, but it is null");
    }
    return this;
  }

  Arguments duration(String field, Duration value, Duration min, Duration max) {
    if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      add("Expected " + field + " in [" + min + ", " + max + "], but was " + value);
    }
    return this;
  }

  /** Records a violation (without the operation, which is appended). */
  Arguments add(String violation) {
    violations.add(violation + " (" + operation + ")");
    return this;
  }

  /** The violations found, in order. */
  List<String> violations() {
    return List.copyOf(violations);
  }

  /**
   * @throws CairnClientException INVALID_ARGUMENT listing every violation, when there is one
   */
  void check() {
    if (!violations.isEmpty()) {
      throw CairnClientException.invalid(String.join("; ", violations));
    }
  }

  /** Whether {@code accountId} follows {@link #ACCOUNT_ID_RULE} (and has no lone surrogate). */
  static boolean isValidAccountId(String accountId) {
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
    if (accountId.getBytes(StandardCharsets.UTF_8).length > ACCOUNT_ID_MAX_BYTES) {
      return false;
    }
    if (Character.isWhitespace(accountId.codePointAt(0))
        || Character.isWhitespace(accountId.codePointBefore(accountId.length()))) {
      return false;
    }
    return accountId.codePoints().noneMatch(Character::isISOControl);
  }

  /** The value in single quotes, control characters escaped, cut after 64 characters. */
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
