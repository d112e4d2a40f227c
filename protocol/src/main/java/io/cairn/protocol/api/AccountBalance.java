package io.cairn.protocol.api;

/**
 * The answer to an {@link AccountQuery}.
 *
 * @param found whether the account exists on the partition
 * @param balance its balance in the smallest unit of money; 0 when not found
 */
public record AccountBalance(boolean found, long balance) {
  public AccountBalance {
    if (!found && balance != 0) {
      throw new IllegalArgumentException(
          "Expected balance 0 for an account that was not found, but was " + balance);
    }
  }

  /** The answer for an account that does not exist. */
  public static AccountBalance notFound() {
    return new AccountBalance(false, 0);
  }
}
