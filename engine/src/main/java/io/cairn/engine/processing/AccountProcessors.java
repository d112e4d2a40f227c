package io.cairn.engine.processing;

import static io.cairn.engine.processing.LedgerValidation.quote;

import io.cairn.engine.LedgerKeys;
import io.cairn.engine.state.LedgerStore;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.streamprocessor.ProcessingContext;
import io.cairn.streamprocessor.ProcessingResultBuilder;

/**
 * {@code ACCOUNT CREATE → CREATED} and {@code DEPOSIT DEPOSIT → DEPOSITED}. Both run on the
 * account's partition; the key of the event is {@link LedgerKeys#of} the command's position.
 */
public final class AccountProcessors {

  private static final String CREATE = "ACCOUNT CREATE";
  private static final String DEPOSIT = "DEPOSIT";

  private final LedgerStore store;
  private final AccountPlacement placement;

  public AccountProcessors(LedgerStore store, AccountPlacement placement) {
    this.store = store;
    this.placement = placement;
  }

  /** Opens an empty account. */
  public void createAccount(ProcessingContext context, ProcessingResultBuilder result) {
    AccountValue command = (AccountValue) context.value();
    String id = command.accountId();
    Violations violations =
        new Violations().add(LedgerValidation.accountId("accountId", id, CREATE));
    if (command.balance() != 0) {
      violations.add(
          "Expected balance 0, but was "
              + command.balance()
              + " ("
              + CREATE
              + " of account "
              + quote(id)
              + "; accounts open empty, add money with DEPOSIT)");
    }
    if (!violations.any()) {
      violations.add(
          LedgerValidation.placedHere(placement, "accountId", id, context.partitionId(), CREATE));
    }
    if (violations.any()) {
      result.reject(RejectionType.INVALID_ARGUMENT, violations.reason());
      return;
    }
    if (store.accountExists(id)) {
      result.reject(
          RejectionType.ALREADY_EXISTS,
          "Expected accountId "
              + quote(id)
              + " to be new, but the account exists already ("
              + CREATE
              + ", partition "
              + context.partitionId()
              + ")");
      return;
    }
    long key = LedgerKeys.of(context.partitionId(), context.position());
    result.appendEventAndRespond(key, AccountIntent.CREATED, new AccountValue(id, 0));
  }

  /** Adds money to an existing account. */
  public void deposit(ProcessingContext context, ProcessingResultBuilder result) {
    DepositValue command = (DepositValue) context.value();
    String id = command.accountId();
    Violations violations =
        new Violations()
            .add(LedgerValidation.accountId("accountId", id, DEPOSIT))
            .add(
                LedgerValidation.positiveAmount(
                    command.amount(), DEPOSIT + " to account " + quote(id)));
    if (!violations.any()) {
      violations.add(
          LedgerValidation.placedHere(placement, "accountId", id, context.partitionId(), DEPOSIT));
    }
    if (violations.any()) {
      result.reject(RejectionType.INVALID_ARGUMENT, violations.reason());
      return;
    }
    Long balance = store.balance(id);
    if (balance == null) {
      result.reject(RejectionType.NOT_FOUND, notFound("accountId", id, context, DEPOSIT));
      return;
    }
    String overflow =
        LedgerValidation.creditFits("accountId", id, balance, command.amount(), DEPOSIT);
    if (overflow != null) {
      result.reject(RejectionType.INVALID_STATE, overflow);
      return;
    }
    long key = LedgerKeys.of(context.partitionId(), context.position());
    result.appendEventAndRespond(key, DepositIntent.DEPOSITED, command);
  }

  static String notFound(String field, String id, ProcessingContext context, String command) {
    return "Expected "
        + field
        + " "
        + quote(id)
        + " to exist, but partition "
        + context.partitionId()
        + " has no such account ("
        + command
        + ")";
  }
}
