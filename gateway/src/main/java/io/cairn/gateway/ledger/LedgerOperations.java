package io.cairn.gateway.ledger;

import io.cairn.gateway.GatewayErrorCode;
import io.cairn.gateway.GatewayException;
import io.cairn.gateway.GatewayMetrics;
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
import io.cairn.scheduler.Futures;
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
 * reported as unknown); the account query is. A cross-partition transfer first asks the target
 * partition whether {@code toAccountId} exists (see {@link #transfer}).
 */
public final class LedgerOperations {
  /** {@link GatewayMetrics#transferTargetCheck} result of a target that exists. */
  static final String TARGET_FOUND = "found";

  /** {@link GatewayMetrics#transferTargetCheck} result of a target that does not exist. */
  static final String TARGET_NOT_FOUND = "not_found";

  private final BrokerRequester requester;
  private final GatewayMetrics metrics;

  public LedgerOperations(BrokerRequester requester, GatewayMetrics metrics) {
    this.requester = requester;
    this.metrics = metrics;
  }

  /** Creates an account; completes with the CREATED event. */
  public CompletableFuture<Routed<Record>> createAccount(String accountId, Deadline deadline) {
    String operation = "CreateAccount";
    Violations violations = new Violations();
    violations.add(AccountIdRule.violation("accountId", accountId, operation));
    return command(
        operation,
        accountId,
        AccountIntent.CREATE,
        violations.isEmpty() ? new AccountValue(accountId, 0) : null,
        violations,
        deadline);
  }

  /** Deposits {@code amount} (&gt; 0); completes with the DEPOSITED event. */
  public CompletableFuture<Routed<Record>> deposit(
      String accountId, long amount, Deadline deadline) {
    String operation = "Deposit";
    Violations violations = new Violations();
    violations.add(AccountIdRule.violation("accountId", accountId, operation));
    violations.add(positive(amount, operation));
    return command(
        operation,
        accountId,
        DepositIntent.DEPOSIT,
        violations.isEmpty() ? new DepositValue(accountId, amount) : null,
        violations,
        deadline);
  }

  /**
   * Transfers {@code amount}; completes with the DEBITED or COMPLETED event.
   *
   * <p>When the two accounts are on different partitions, the transfer is sent only after the
   * target partition's leader said that {@code toAccountId} exists (one more round trip): the
   * source partition cannot see the target's accounts, so the engine would accept the transfer and
   * refund it later (CREDIT REFUSED, TRANSFER REFUNDED). An unknown target fails with NOT_FOUND
   * naming the account and its partition; a check that gets no answer fails with its own code
   * (UNAVAILABLE, DEADLINE_EXCEEDED, ...) and says that nothing was sent. Accounts are never
   * deleted, so a target that exists at the check accepts the credit; the engine's refund remains
   * the backstop (a leader answers from state that may hold a creation not committed yet, which a
   * leader change can undo). Same-partition transfers go to the engine at once: it checks both
   * accounts.
   */
  public CompletableFuture<Routed<Record>> transfer(
      String fromAccountId, String toAccountId, long amount, Deadline deadline) {
    String operation = "Transfer";
    Violations violations = new Violations();
    violations.add(AccountIdRule.violation("fromAccountId", fromAccountId, operation));
    violations.add(AccountIdRule.violation("toAccountId", toAccountId, operation));
    violations.add(positive(amount, operation));
    if (violations.isEmpty() && fromAccountId.equals(toAccountId)) {
      violations.add(
          "Expected fromAccountId and toAccountId to differ, but both are "
              + AccountIdRule.quote(fromAccountId)
              + " ("
              + operation
              + ")");
    }
    if (!violations.isEmpty()) {
      return CompletableFuture.failedFuture(GatewayException.invalid(violations.message()));
    }
    TransferValue value =
        new TransferValue(
            fromAccountId,
            toAccountId,
            amount,
            ValueDescriptor.NO_PARTITION_ID,
            ValueDescriptor.NO_PARTITION_ID);
    int partitionCount = requester.topology().current().partitionCount();
    if (partitionCount != 0) {
      AccountPlacement placement = new AccountPlacement(partitionCount);
      if (placement.partitionOf(fromAccountId) == placement.partitionOf(toAccountId)) {
        return command(
            operation, fromAccountId, TransferIntent.CREATE, value, violations, deadline);
      }
    }
    // Also while the partition count is unknown: the check waits for it like any routed call.
    return checkTarget(fromAccountId, toAccountId, deadline)
        .thenCompose(
            exists ->
                command(
                    operation, fromAccountId, TransferIntent.CREATE, value, violations, deadline));
  }

  /** Completes when {@code toAccountId} exists; fails with NOT_FOUND or why it is unknown. */
  private CompletableFuture<Void> checkTarget(
      String fromAccountId, String toAccountId, Deadline deadline) {
    return requester
        .toLeader(new AccountQueryCall("Transfer", toAccountId), deadline)
        .<Void>handle(
            (routed, error) -> {
              if (error != null) {
                GatewayException failure = targetUnknown(toAccountId, error);
                metrics.transferTargetCheck(GatewayMetrics.result(failure));
                throw failure;
              }
              if (!routed.body().found()) {
                metrics.transferTargetCheck(TARGET_NOT_FOUND);
                throw new GatewayException(
                    GatewayErrorCode.NOT_FOUND,
                    "Expected an existing toAccountId, but "
                        + AccountIdRule.quote(toAccountId)
                        + " does not exist on partition "
                        + routed.partitionId()
                        + " (Transfer"
                        + " from "
                        + AccountIdRule.quote(fromAccountId)
                        + "). Nothing was sent;"
                        + " create the account first");
              }
              metrics.transferTargetCheck(TARGET_FOUND);
              return null;
            });
  }

  private static GatewayException targetUnknown(String toAccountId, Throwable error) {
    Throwable cause = Futures.unwrap(error);
    GatewayErrorCode code =
        cause instanceof GatewayException gateway ? gateway.code() : GatewayErrorCode.INTERNAL;
    return new GatewayException(
        code,
        "Expected to learn whether toAccountId "
            + AccountIdRule.quote(toAccountId)
            + " exists"
            + " before sending the transfer, but the check failed: "
            + cause.getMessage()
            + " (Transfer). Nothing"
            + " was sent; sending the transfer again is safe",
        cause);
  }

  /** Reads an account's balance; NOT_FOUND when it does not exist. */
  public CompletableFuture<Routed<AccountBalance>> getAccount(String accountId, Deadline deadline) {
    String operation = "GetAccount";
    String violation = AccountIdRule.violation("accountId", accountId, operation);
    if (violation != null) {
      return CompletableFuture.failedFuture(GatewayException.invalid(violation));
    }
    return requester
        .toLeader(new AccountQueryCall(operation, accountId), deadline)
        .thenApply(
            routed -> {
              if (!routed.body().found()) {
                throw new GatewayException(
                    GatewayErrorCode.NOT_FOUND,
                    "Expected an existing account, but "
                        + AccountIdRule.quote(accountId)
                        + " does not exist on partition "
                        + routed.partitionId()
                        + " (GetAccount). Create it first");
              }
              return routed;
            });
  }

  private CompletableFuture<Routed<Record>> command(
      String operation,
      String accountId,
      Intent intent,
      RecordValue value,
      Violations violations,
      Deadline deadline) {
    if (!violations.isEmpty()) {
      return CompletableFuture.failedFuture(GatewayException.invalid(violations.message()));
    }
    Record command = new Record(RecordMetadata.builder().command(intent).build(), value);
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

  private static String positive(long amount, String operation) {
    return amount > 0 ? null : "Expected amount > 0, but was " + amount + " (" + operation + ")";
  }

  /** Every violated rule of one request. */
  private static final class Violations {
    private final List<String> messages = new ArrayList<>();

    void add(String message) {
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

  /**
   * The balance query, sent to the account's partition leader; idempotent. Its operation is the API
   * operation it serves (GetAccount, or Transfer for the target check).
   */
  private static final class AccountQueryCall implements PartitionCall<AccountBalance> {
    private final String operation;
    private final String accountId;

    AccountQueryCall(String operation, String accountId) {
      this.operation = operation;
      this.accountId = accountId;
    }

    @Override
    public String operation() {
      return operation;
    }

    @Override
    public int partitionId(ClusterTopology topology) {
      return topology.partitionCount() == 0
          ? 0
          : new AccountPlacement(topology.partitionCount()).partitionOf(accountId);
    }

    @Override
    public String messageType() {
      return ApiDescriptor.TYPE_QUERY_ACCOUNT;
    }

    @Override
    public byte[] payload(int partitionId) {
      return AccountQueryCodec.encodeRequest(new AccountQuery(partitionId, accountId));
    }

    @Override
    public ApiResponse<AccountBalance> decode(byte[] response) {
      return AccountQueryCodec.decodeResponse(response);
    }

    @Override
    public boolean idempotent() {
      return true;
    }
  }
}
