package io.cairn.db;

import static io.cairn.db.TestFamily.ACCOUNTS;
import static io.cairn.db.TestFamily.CHECKPOINTS;
import static io.cairn.db.TestFamily.TRANSFERS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TransactionTest {

  @TempDir Path directory;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private CairnDb db;
  private ColumnFamily<Long, String> accounts;
  private ColumnFamily<Long, String> transfers;
  private ColumnFamily<Long, String> checkpoints;

  @BeforeEach
  void open() {
    db =
        CairnDb.open(
            directory, DbConfig.defaults(), TestFamily.ALL, registry, Tags.of("partition", "1"));
    accounts = db.columnFamily(ACCOUNTS, DbCodecs.LONG, DbCodecs.STRING);
    transfers = db.columnFamily(TRANSFERS, DbCodecs.LONG, DbCodecs.STRING);
    checkpoints = db.columnFamily(CHECKPOINTS, DbCodecs.LONG, DbCodecs.STRING);
  }

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void shouldLeaveNoTraceOnRollback() {
    accounts.put(1L, "one");
    accounts.put(2L, "two");
    Map<Long, String> dataBefore = contents(accounts);
    StateDigest digestBefore = db.stateDigest();

    Transaction transaction = db.beginTransaction();
    accounts.put(1L, "changed");
    accounts.delete(2L);
    accounts.insert(3L, "three");
    transfers.put(9L, "nine");
    assertThat(db.stateDigest()).isNotEqualTo(digestBefore).isEqualTo(db.recomputeDigest());
    transaction.rollback();

    assertThat(transaction.isOpen()).isFalse();
    assertThat(contents(accounts)).isEqualTo(dataBefore);
    assertThat(transfers.isEmpty()).isTrue();
    assertThat(db.stateDigest()).isEqualTo(digestBefore).isEqualTo(db.recomputeDigest());
  }

  @Test
  void shouldRollBackAndRethrowWhenTheOperationFails() {
    accounts.put(1L, "one");
    StateDigest digestBefore = db.stateDigest();

    assertThatThrownBy(
            () ->
                db.runInTransaction(
                    () -> {
                      accounts.put(2L, "two");
                      accounts.insert(1L, "again");
                    }))
        .isInstanceOf(DbInconsistentStateException.class);

    assertThat(db.isInTransaction()).isFalse();
    assertThat(accounts.exists(2L)).isFalse();
    assertThat(db.stateDigest()).isEqualTo(digestBefore);
  }

  @Test
  void shouldCommitEveryWriteTogether() {
    String result =
        db.callInTransaction(
            () -> {
              accounts.put(1L, "one");
              transfers.put(1L, "t");
              return "done";
            });

    assertThat(result).isEqualTo("done");
    assertThat(accounts.get(1L)).isEqualTo("one");
    assertThat(transfers.get(1L)).isEqualTo("t");
    assertThat(db.stateDigest()).isEqualTo(db.recomputeDigest());
  }

  @Test
  void shouldRunNestedOperationsInTheOpenTransaction() {
    Transaction transaction = db.beginTransaction();
    db.runInTransaction(() -> accounts.put(1L, "nested"));

    assertThat(transaction.isOpen()).isTrue();
    transaction.rollback();
    assertThat(accounts.exists(1L)).isFalse();
  }

  @Test
  void shouldRefuseASecondOpenTransactionAndUseAfterTheEnd() {
    Transaction transaction = db.beginTransaction();

    assertThatThrownBy(db::beginTransaction)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Expected no open transaction, but one is open");
    transaction.commit();
    assertThatThrownBy(transaction::commit).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(transaction::rollback).isInstanceOf(IllegalStateException.class);
    transaction.close();
  }

  @Test
  void shouldRollBackWhenClosedOpen() {
    try (Transaction transaction = db.beginTransaction()) {
      accounts.put(1L, "one");
      assertThat(transaction.isOpen()).isTrue();
    }

    assertThat(db.isInTransaction()).isFalse();
    assertThat(accounts.exists(1L)).isFalse();
  }

  @Test
  void shouldIgnoreExcludedFamiliesInTheDigest() {
    accounts.put(1L, "one");
    StateDigest before = db.stateDigest();

    checkpoints.put(1L, "checkpoint 1 at position 10");
    checkpoints.put(2L, "checkpoint 2 at position 20");
    checkpoints.delete(1L);

    assertThat(db.stateDigest()).isEqualTo(before).isEqualTo(db.recomputeDigest());
    assertThat(db.stateDigest().families()).doesNotContainKey("CHECKPOINTS");
  }

  @Test
  void shouldCountCommitsRollbacksAndWrites() {
    db.runInTransaction(
        () -> {
          accounts.put(1L, "one");
          accounts.put(2L, "two");
          accounts.delete(1L);
        });
    db.beginTransaction().rollback();
    accounts.get(2L);
    accounts.forEach((key, value) -> {});

    assertThat(registry.get(DbMetrics.TRANSACTIONS).tag("result", "committed").counter().count())
        .isEqualTo(1);
    assertThat(registry.get(DbMetrics.TRANSACTIONS).tag("result", "rolled_back").counter().count())
        .isEqualTo(1);
    assertThat(registry.get(DbMetrics.WRITES).tag("operation", "put").counter().count())
        .isEqualTo(2);
    assertThat(registry.get(DbMetrics.WRITES).tag("operation", "delete").counter().count())
        .isEqualTo(1);
    assertThat(registry.get(DbMetrics.COMMIT_LATENCY).tag("partition", "1").timer().count())
        .isEqualTo(1);
  }

  @Test
  void shouldRefuseUseAfterClose() {
    db.close();
    db.close();

    assertThat(db.isOpen()).isFalse();
    assertThatThrownBy(() -> accounts.get(1L))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is closed");
    assertThatThrownBy(db::beginTransaction).isInstanceOf(IllegalStateException.class);
  }

  private static Map<Long, String> contents(ColumnFamily<Long, String> family) {
    Map<Long, String> contents = new LinkedHashMap<>();
    family.forEach(contents::put);
    return contents;
  }
}
