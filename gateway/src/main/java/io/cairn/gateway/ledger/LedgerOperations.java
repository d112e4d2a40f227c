package io.cairn.gateway.ledger;

import io.cairn.gateway.GatewayErrorCode;
import io.cairn.gateway.GatewayException;
import io.cairn.gateway.routing.BrokerRequester;
import io.cairn.gateway.routing.CommandCall;
import io.cairn.gateway.routing.Deadline;
import io.cairn.gateway.routing.PartitionCall;
import io.cairn.gateway.routing.Rejections;
import io.cairn.gateway.routing.Routed;
import io.cairn.gateway.topology.ClusterTopology;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.protocol.api.AccountBalance;
import io.cairn.protocol.api.AccountIdRule;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.protocol.api.AccountQuery;
import io.cairn.protocol.api.AccountQueryCodec;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The ledger operations of the client API, routed to the leader of the account's partition. Input
 * is checked first — every violation listed in one INVALID_ARGUMENT, nothing sent — with the
 * engine's own rules (account ids: {@link AccountIdRule}; amounts &gt; 0; distinct transfer
 * accounts). A REJECTION from the engine fails with the code {@link Rejections} maps it to.
 *
 * <p>Commands are not sent again once they may have reached a broker (their outcome is then
 * reported as unknown); the account query is.
 */
public final class LedgerOperations {
  private final BrokerRequester requester;

  public LedgerOperations(final BrokerRequester requester) {
    this.requester = requester;
  }

  /** Creates an account; completes with the CREATED event. */
  public CompletableFuture<Routed<Record>> createAccount(
      final String accountId, final Deadline deadline) {
    final String operation = "CreateAccount";
    final Violations violations = new Violations();
    violations.add(AccountIdRule.violation("accountId", accountId, operation));
    return command(operation, accountId, AccountIntent.CREATE,
        violations.isEmpty() ? new AccountValue(accountId, 0) : null, violations, deadline);
  }

  /** Deposits {@code amount} (&gt; 0); completes with the DEPOSITED event. */
  public CompletableFuture<Routed<Record>> deposit(
      final String accountId, final long amount, final Deadline deadline) {
    final String operation = "Deposit";
    final Violations violations = new Violations();
    violations.add(AccountIdRule.violation("accountId", accountId, operation));
    violations.add(positive(amount, operation));
    return command(operation, accountId, DepositIntent.DEPOSIT,
        violations.isEmpty() ? new DepositValue(accountId, amount) : null, violations, deadline);
  }

  /** Transfers {@code amount}; completes with the DEBITED or COMPLETED event. */
  public CompletableFuture<Routed<Record>> transfer(
      final String fromAccountId,
      final String toAccountId,
      final long amount,
      final Deadline deadline) {
    final String operation = "Transfer";
    final Violations violations = new Violations();
    violations.add(AccountIdRule.violation("fromAccountId", fromAccountId, operation));
    violations.add(AccountIdRule.violation("toAccountId", toAccountId, operation));
    violations.add(positive(amount, operation));
    if (violations.isEmpty() && fromAccountId.equals(toAccountId)) {
      violations.add("Expected fromAccountId and toAccountId to differ, but both are "
          + AccountIdRule.quote(fromAccountId) + " (" + operation + ")");
    }
    final TransferValue value =
        violations.isEmpty()
            ? new TransferValue(fromAccountId, toAccountId, amount,
                ValueDescriptor.NO_PARTITION_ID, ValueDescriptor.NO_PARTITION_ID)
            : null;
    return command(operation, fromAccountId, TransferIntent.CREATE, value, violations, deadline);
  }

  /** Reads an account's balance; NOT_FOUND when it does not exist. */
  public CompletableFuture<Routed<AccountBalance>> getAccount(
      final String accountId, final Deadline deadline) {
    final String operation = "GetAccount";
    final String violation = AccountIdRule.violation("accountId", accountId, operation);
    if (violation != null) {
      return CompletableFuture.failedFuture(GatewayException.invalid(violation));
    }
    return requester
        .toLeader(new AccountQueryCall(accountId), deadline)
        .thenApply(
            routed -> {
              if (!routed.body().found()) {
                throw new GatewayException(
                    GatewayErrorCode.NOT_FOUND,
                    "Expected an existing account, but " + AccountIdRule.quote(accountId)
                        + " does not exist on partition " + routed.partitionId()
                        + " (GetAccount). Create it first");
              }
              return routed;
            });
  }

  private CompletableFuture<Routed<Record>> command(
      final String operation,
      final String accountId,
      final Intent intent,
      final RecordValue value,
      final Violations violations,
      final Deadline deadline) {
    if (!violations.isEmpty()) {
      return CompletableFuture.failedFuture(GatewayException.invalid(violations.message()));
    }
    final Record command = new Record(RecordMetadata.builder().command(intent).build(), value);
    return requester
        .toLeader(CommandCall.forAccount(operation, accountId, command), deadline)
        .thenApply(
            routed -> {
              if (routed.body().metadata().recordType() == RecordType.REJECTION) {
                throw Rejections.toException(routed.body());
              }
              return routed;
            });
  }

  private static String positive(final long amount, final String operation) {
    return amount > 0 ? null : "Expected amount > 0, but was " + amount + " (" + operation + ")";
  }

  /** Every violated rule of one request. */
  private static final class Violations {
    private final List<String> messages = new ArrayList<>();

    void add(final String message) {
      if (message != null) {
        messages.add(message);
      }
    }

    boolean isEmpty() {
      return messages.isEmpty();
    }

    String message() {
      return String.join("; ", messages);
    }
  }

  /** The balance query, sent to the account's partition leader; idempotent. */
  private static final class AccountQueryCall implements PartitionCall<AccountBalance> {
    private final String accountId;

    AccountQueryCall(final String accountId) {
      this.accountId = accountId;
    }

    @Override
    public String operation() {
      return "GetAccount";
    }

    @Override
    public int partitionId(final ClusterTopology topology) {
      return topology.partitionCount() == 0
          ? 0
          : new AccountPlacement(topology.partitionCount()).partitionOf(accountId);
    }

    @Override
    public String messageType() {
      return ApiDescriptor.TYPE_QUERY_ACCOUNT;
    }

    @Override
    public byte[] payload(final int partitionId) {
      return AccountQueryCodec.encodeRequest(new AccountQuery(partitionId, accountId));
    }

    @Override
    public ApiResponse<AccountBalance> decode(final byte[] response) {
      return AccountQueryCodec.decodeResponse(response);
    }

    @Override
    public boolean idempotent() {
      return true;
    }
  }
}
