package io.cairn.protocol.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class AccountIdRuleTest {

  @Test
  void shouldAcceptIdsOfOneTo128Bytes() {
    assertThat(AccountIdRule.isValid("a")).isTrue();
    assertThat(AccountIdRule.isValid("x".repeat(128))).isTrue();
    assertThat(AccountIdRule.isValid("konto-ü-\uD83D\uDE00")).isTrue();
    assertThat(AccountIdRule.violation("accountId", "alice", "Deposit")).isNull();
  }

  @Test
  void shouldRejectEmptyLongControlWhitespaceAndSurrogateIds() {
    assertThat(AccountIdRule.isValid(null)).isFalse();
    assertThat(AccountIdRule.isValid("")).isFalse();
    assertThat(AccountIdRule.isValid("x".repeat(129))).isFalse();
    assertThat(AccountIdRule.isValid("ü".repeat(65))).isFalse();
    assertThat(AccountIdRule.isValid("a\nb")).isFalse();
    assertThat(AccountIdRule.isValid(" a")).isFalse();
    assertThat(AccountIdRule.isValid("a ")).isFalse();
    assertThat(AccountIdRule.isValid("a\uD800")).isFalse();
  }

  @Test
  void shouldNameFieldValueRuleAndContextInTheViolation() {
    assertThat(AccountIdRule.violation("toAccountId", "a\tb", "Transfer"))
        .isEqualTo(
            "Expected toAccountId of 1 to 128 UTF-8 bytes without control characters and without"
                + " leading or trailing whitespace, but was 'a\\u0009b' (3 bytes) (Transfer)");
    assertThat(AccountIdRule.violation("accountId", null, "Deposit"))
        .contains("but was missing (Deposit)");
  }
}
