package io.cairn.db;

import static io.cairn.db.TestFamily.ACCOUNTS;
import static io.cairn.db.TestFamily.CREDITS;
import static io.cairn.db.TestFamily.TRANSFERS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ColumnFamilyTest {

  @TempDir Path directory;
  private CairnDb db;

  @BeforeEach
  void open() {
    db = TestFamily.open(directory);
  }

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void shouldRoundTripTypedKeysAndValues() {
    ColumnFamily<Long, String> names = db.columnFamily(ACCOUNTS, DbCodecs.LONG, DbCodecs.STRING);
    ColumnFamily<String, byte[]> blobs =
        db.columnFamily(TRANSFERS, DbCodecs.STRING, DbCodecs.BYTES);
    CompositeKeyCodec<Long, String> keyCodec = DbCodecs.composite(DbCodecs.LONG, DbCodecs.STRING);
    ColumnFamily<CompositeKey<Long, String>, Long> pairs =
        db.columnFamily(CREDITS, keyCodec, DbCodecs.LONG);

    names.put(-7L, "héllo");
    blobs.put("k", new byte[] {0, -1, 42});
    pairs.put(CompositeKey.of(3L, "x"), Long.MIN_VALUE);

    assertThat(names.get(-7L)).isEqualTo("héllo");
    assertThat(names.get(7L)).isNull();
    assertThat(names.exists(-7L)).isTrue();
    assertThat(blobs.get("k")).containsExactly(0, -1, 42);
    assertThat(pairs.get(CompositeKey.of(3L, "x"))).isEqualTo(Long.MIN_VALUE);
    assertThat(pairs.get(CompositeKey.of(3L, "y"))).isNull();
  }

  @Test
  void shouldIterateInNumericKeyOrder() {
    ColumnFamily<Long, Long> family = db.columnFamily(ACCOUNTS, DbCodecs.LONG, DbCodecs.LONG);
    for (long key : new long[] {5, -3, Long.MAX_VALUE, 0, Long.MIN_VALUE, -1}) {
      family.put(key, key * 2);
    }

    List<Long> keys = new ArrayList<>();
    family.forEach((key, value) -> keys.add(key));

    assertThat(keys).containsExactly(Long.MIN_VALUE, -3L, -1L, 0L, 5L, Long.MAX_VALUE);
  }

  @Test
  void shouldVisitOnlyThePrefixInKeyOrder() {
    CompositeKeyCodec<Long, Long> keyCodec = DbCodecs.composite(DbCodecs.LONG, DbCodecs.LONG);
    ColumnFamily<CompositeKey<Long, Long>, String> transfers =
        db.columnFamily(TRANSFERS, keyCodec, DbCodecs.STRING);
    transfers.put(CompositeKey.of(0L, 3L), "before");
    transfers.put(CompositeKey.of(1L, 9L), "c");
    transfers.put(CompositeKey.of(1L, -2L), "a");
    transfers.put(CompositeKey.of(1L, 5L), "b");
    transfers.put(CompositeKey.of(2L, 1L), "after");

    List<String> visited = new ArrayList<>();
    boolean complete =
        transfers.whilePrefix(1L, keyCodec.prefixCodec(), (key, value) -> visited.add(value));

    assertThat(complete).isTrue();
    assertThat(visited).containsExactly("a", "b", "c");
  }

  @Test
  void shouldNotMatchLongerStringPrefixes() {
    CompositeKeyCodec<String, Long> keyCodec = DbCodecs.composite(DbCodecs.STRING, DbCodecs.LONG);
    ColumnFamily<CompositeKey<String, Long>, String> family =
        db.columnFamily(TRANSFERS, keyCodec, DbCodecs.STRING);
    family.put(CompositeKey.of("ab", 1L), "ab-1");
    family.put(CompositeKey.of("abc", 1L), "abc-1");
    family.put(CompositeKey.of("a", 1L), "a-1");
    family.put(CompositeKey.of("ab", 2L), "ab-2");

    List<String> visited = new ArrayList<>();
    family.whilePrefix("ab", keyCodec.prefixCodec(), (key, value) -> visited.add(value));

    assertThat(visited).containsExactly("ab-1", "ab-2");
  }

  @Test
  void shouldStopWhenTheVisitorSaysSo() {
    ColumnFamily<Long, Long> family = db.columnFamily(ACCOUNTS, DbCodecs.LONG, DbCodecs.LONG);
    for (long key = 0; key < 10; key++) {
      family.put(key, key);
    }

    List<Long> visited = new ArrayList<>();
    boolean complete = family.whileTrue((key, value) -> visited.add(key) && key < 3);

    assertThat(complete).isFalse();
    assertThat(visited).containsExactly(0L, 1L, 2L, 3L);
  }

  @Test
  void shouldFailToInsertAnExistingKey() {
    ColumnFamily<Long, String> family = db.columnFamily(ACCOUNTS, DbCodecs.LONG, DbCodecs.STRING);
    family.insert(1L, "first");
    StateDigest before = db.stateDigest();

    assertThatThrownBy(() -> family.insert(1L, "second"))
        .isInstanceOf(DbInconsistentStateException.class)
        .hasMessage(
            "Expected key 1 to be absent in column family 'ACCOUNTS', but it exists (insert)");
    assertThat(family.get(1L)).isEqualTo("first");
    assertThat(db.stateDigest()).isEqualTo(before);
  }

  @Test
  void shouldFailToUpdateOrDeleteAMissingKey() {
    ColumnFamily<String, String> family =
        db.columnFamily(ACCOUNTS, DbCodecs.STRING, DbCodecs.STRING);
    StateDigest before = db.stateDigest();

    assertThatThrownBy(() -> family.update("ghost", "value"))
        .isInstanceOf(DbInconsistentStateException.class)
        .hasMessage(
            "Expected key ghost to exist in column family 'ACCOUNTS', but it does not (update)");
    assertThatThrownBy(() -> family.deleteExisting("ghost"))
        .isInstanceOf(DbInconsistentStateException.class)
        .hasMessageContaining("(delete)");
    assertThat(family.exists("ghost")).isFalse();
    assertThat(db.stateDigest()).isEqualTo(before);
    family.delete("ghost");
    assertThat(family.isEmpty()).isTrue();
  }

  @Test
  void shouldSeeTheTransactionsOwnWritesInGetsAndIteration() {
    ColumnFamily<Long, String> family = db.columnFamily(ACCOUNTS, DbCodecs.LONG, DbCodecs.STRING);
    family.put(1L, "committed");
    family.put(2L, "to be deleted");

    try (Transaction transaction = db.beginTransaction()) {
      family.put(3L, "pending");
      family.delete(2L);
      family.update(1L, "updated");

      List<String> visited = new ArrayList<>();
      family.forEach((key, value) -> visited.add(key + "=" + value));

      assertThat(visited).containsExactly("1=updated", "3=pending");
      assertThat(family.get(2L)).isNull();
      transaction.commit();
    }
    assertThat(family.get(3L)).isEqualTo("pending");
  }

  @Test
  void shouldSeeWritesMadeWhileIterating() {
    ColumnFamily<Long, String> family = db.columnFamily(ACCOUNTS, DbCodecs.LONG, DbCodecs.STRING);
    for (long key = 0; key < 6; key++) {
      family.put(key, "v" + key);
    }

    List<Long> visited = new ArrayList<>();
    family.forEach(
        (key, value) -> {
          visited.add(key);
          family.delete(key);
          if (key == 1) {
            family.delete(3L); // later key: must not be visited
            family.put(10L, "added"); // later key: must be visited
          }
        });

    assertThat(visited).containsExactly(0L, 1L, 2L, 4L, 5L, 10L);
    assertThat(family.isEmpty()).isTrue();
    assertThat(db.stateDigest()).isEqualTo(db.recomputeDigest());
    assertThat(db.stateDigest().family("ACCOUNTS")).isEqualTo(Digest128.ZERO);
  }

  @Test
  void shouldKeepSeparateFamiliesApart() {
    ColumnFamily<String, String> accounts =
        db.columnFamily(ACCOUNTS, DbCodecs.STRING, DbCodecs.STRING);
    ColumnFamily<String, String> transfers =
        db.columnFamily(TRANSFERS, DbCodecs.STRING, DbCodecs.STRING);

    accounts.put("k", "account");
    transfers.put("k", "transfer");

    assertThat(accounts.get("k")).isEqualTo("account");
    assertThat(transfers.get("k")).isEqualTo("transfer");
    assertThat(db.stateDigest().family("ACCOUNTS"))
        .isNotEqualTo(db.stateDigest().family("TRANSFERS"));
  }

  @Test
  void shouldRefuseAFamilyThatWasNotOpened() {
    assertThatThrownBy(
            () ->
                db.columnFamily(
                    ColumnFamilyDefinition.digested("unknown"), DbCodecs.LONG, DbCodecs.LONG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown");
    assertThatThrownBy(
            () ->
                db.columnFamily(
                    ColumnFamilyDefinition.excluded("ACCOUNTS"), DbCodecs.LONG, DbCodecs.LONG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("includedInDigest=false");
  }

  @Test
  void shouldShowByteArrayKeysAsHexInErrors() {
    ColumnFamily<byte[], byte[]> family = db.columnFamily(ACCOUNTS, DbCodecs.BYTES, DbCodecs.BYTES);

    assertThatThrownBy(() -> family.update("k".getBytes(StandardCharsets.UTF_8), new byte[0]))
        .hasMessageContaining("Expected key 0x6b to exist");
  }
}
