package io.cairn.broker.partition;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamily;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbCodecs;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.RejectionType;
import io.cairn.streamprocessor.ProcessingContext;
import io.cairn.streamprocessor.ProcessingResultBuilder;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import io.cairn.streamprocessor.StreamProcessorMode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A small ledger plugged into partitions as a {@link PartitionComponent}: accounts and deposits in
 * one digested column family. It records every life-cycle call, so tests can check the order the
 * partition calls them in. A deposit to an account whose id starts with {@code poison} has an
 * applier that throws (the stream processor, and so the partition, must fail).
 */
final class TestLedgerComponent implements PartitionComponent {

  /** The ledger's only family: account id → balance. */
  enum Family implements ColumnFamilyDefinition {
    TEST_LEDGER_ACCOUNTS;

    @Override
    public boolean includedInDigest() {
      return true;
    }
  }

  /**
   * Life-cycle calls, e.g. {@code "register LEADER 3"}, {@code "leader 3"}, {@code "stopped 3"}.
   */
  final List<String> calls = new CopyOnWriteArrayList<>();

  @Override
  public String name() {
    return "test-ledger";
  }

  @Override
  public List<Family> columnFamilies() {
    return List.of(Family.values());
  }

  @Override
  public void registerProcessors(ProcessingScope scope, RecordProcessors.Builder processors) {
    calls.add("register " + scope.mode() + " " + scope.run());
    ColumnFamily<String, Long> accounts = accounts(scope.db());
    processors
        .processor(AccountIntent.CREATE, (context, result) -> create(accounts, context, result))
        .applier(
            AccountIntent.CREATED,
            event -> accounts.insert(((AccountValue) event.value()).accountId(), 0L))
        .processor(DepositIntent.DEPOSIT, (context, result) -> deposit(accounts, context, result))
        .applier(
            DepositIntent.DEPOSITED,
            event -> {
              DepositValue deposit = (DepositValue) event.value();
              if (deposit.accountId().startsWith("poison")) {
                throw new IllegalStateException("poisoned deposit to " + deposit.accountId());
              }
              accounts.update(
                  deposit.accountId(), accounts.get(deposit.accountId()) + deposit.amount());
            });
  }

  @Override
  public void onBecomeLeader(ProcessingScope scope, StreamProcessor processor) {
    check(scope, processor, StreamProcessorMode.LEADER);
    calls.add("leader " + scope.run());
  }

  @Override
  public void onBecomeFollower(ProcessingScope scope, StreamProcessor processor) {
    check(scope, processor, StreamProcessorMode.FOLLOWER);
    calls.add("follower " + scope.run());
  }

  @Override
  public void onProcessingStopped(ProcessingScope scope) {
    calls.add("stopped " + scope.run());
  }

  @Override
  public void close() {
    calls.add("close");
  }

  /** Every account and its balance. */
  static Map<String, Long> balances(CairnDb db) {
    Map<String, Long> balances = new TreeMap<>();
    accounts(db).forEach(balances::put);
    return balances;
  }

  private static ColumnFamily<String, Long> accounts(CairnDb db) {
    return db.columnFamily(Family.TEST_LEDGER_ACCOUNTS, DbCodecs.STRING, DbCodecs.LONG);
  }

  private static void check(
      ProcessingScope scope, StreamProcessor processor, StreamProcessorMode mode) {
    if (scope.mode() != mode || processor.mode() != mode) {
      throw new IllegalStateException(
          "Expected a "
              + mode
              + " run, but the scope is "
              + scope.mode()
              + " and the processor "
              + processor.mode());
    }
  }

  private static void create(
      ColumnFamily<String, Long> accounts,
      ProcessingContext context,
      ProcessingResultBuilder result) {
    String id = ((AccountValue) context.value()).accountId();
    if (accounts.exists(id)) {
      result.reject(
          RejectionType.ALREADY_EXISTS, "Expected a new account, but '" + id + "' exists");
      return;
    }
    result.appendEventAndRespond(
        context.position(), AccountIntent.CREATED, new AccountValue(id, 0));
  }

  private static void deposit(
      ColumnFamily<String, Long> accounts,
      ProcessingContext context,
      ProcessingResultBuilder result) {
    DepositValue deposit = (DepositValue) context.value();
    if (!accounts.exists(deposit.accountId())) {
      result.reject(
          RejectionType.NOT_FOUND,
          "Expected an account '" + deposit.accountId() + "', but none exists");
      return;
    }
    result.appendEventAndRespond(context.position(), DepositIntent.DEPOSITED, deposit);
  }

  /** A command record as a client writes it. */
  static Record command(Intent intent, RecordValue value, long requestId) {
    return new Record(
        RecordMetadata.builder()
            .command(intent)
            .requestId(requestId)
            .requestStreamId(requestId < 0 ? RecordMetadata.NO_REQUEST_STREAM_ID : 1)
            .build(),
        value);
  }
}
