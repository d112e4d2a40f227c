package io.cairn.db.rocksdb;

import io.cairn.db.ColumnFamily;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbCodec;
import io.cairn.db.DbInconsistentStateException;
import io.cairn.db.KeyValueVisitor;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.function.BiConsumer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** A typed view of one family; encodes with its codecs and delegates to the database. */
final class RocksColumnFamily<K, V> implements ColumnFamily<K, V> {

  private final RocksCairnDb db;
  private final Family family;
  private final DbCodec<K> keyCodec;
  private final DbCodec<V> valueCodec;
  private final ExpandableArrayBuffer scratch = new ExpandableArrayBuffer(128);
  private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);

  RocksColumnFamily(RocksCairnDb db, Family family, DbCodec<K> keyCodec, DbCodec<V> valueCodec) {
    this.db = db;
    this.family = family;
    this.keyCodec = keyCodec;
    this.valueCodec = valueCodec;
  }

  @Override
  public ColumnFamilyDefinition definition() {
    return family.definition();
  }

  @Override
  public V get(K key) {
    byte[] value = db.read(family, encode(keyCodec, key));
    return value == null ? null : decode(valueCodec, value);
  }

  @Override
  public boolean exists(K key) {
    return db.read(family, encode(keyCodec, key)) != null;
  }

  @Override
  public void put(K key, V value) {
    byte[] keyBytes = encode(keyCodec, key);
    byte[] valueBytes = encode(valueCodec, value);
    write(
        transaction -> {
          byte[] old =
              transaction.needsOldValue(family) ? transaction.read(family, keyBytes) : null;
          transaction.write(family, keyBytes, valueBytes, old);
        });
  }

  @Override
  public void insert(K key, V value) {
    byte[] keyBytes = encode(keyCodec, key);
    byte[] valueBytes = encode(valueCodec, value);
    write(
        transaction -> {
          if (transaction.read(family, keyBytes) != null) {
            throw inconsistent(key, "to be absent", "it exists", "insert");
          }
          transaction.write(family, keyBytes, valueBytes, null);
        });
  }

  @Override
  public void update(K key, V value) {
    byte[] keyBytes = encode(keyCodec, key);
    byte[] valueBytes = encode(valueCodec, value);
    write(
        transaction -> {
          byte[] old = transaction.read(family, keyBytes);
          if (old == null) {
            throw inconsistent(key, "to exist", "it does not", "update");
          }
          transaction.write(family, keyBytes, valueBytes, old);
        });
  }

  @Override
  public void delete(K key) {
    byte[] keyBytes = encode(keyCodec, key);
    write(
        transaction -> {
          if (!transaction.needsOldValue(family)) {
            transaction.remove(family, keyBytes, null);
            return;
          }
          byte[] old = transaction.read(family, keyBytes);
          if (old != null) {
            transaction.remove(family, keyBytes, old);
          }
        });
  }

  @Override
  public void deleteExisting(K key) {
    byte[] keyBytes = encode(keyCodec, key);
    write(
        transaction -> {
          byte[] old = transaction.read(family, keyBytes);
          if (old == null) {
            throw inconsistent(key, "to exist", "it does not", "delete");
          }
          transaction.remove(family, keyBytes, old);
        });
  }

  @Override
  public boolean isEmpty() {
    return db.inTransaction(() -> db.iterate(family, null, (key, value) -> false), true);
  }

  @Override
  public void forEach(BiConsumer<K, V> consumer) {
    whileTrue(
        (key, value) -> {
          consumer.accept(key, value);
          return true;
        });
  }

  @Override
  public boolean whileTrue(KeyValueVisitor<K, V> visitor) {
    return iterate(null, visitor);
  }

  @Override
  public <P> boolean whilePrefix(P prefix, DbCodec<P> prefixCodec, KeyValueVisitor<K, V> visitor) {
    return iterate(encode(prefixCodec, prefix), visitor);
  }

  @Override
  public String toString() {
    return "ColumnFamily{" + family.name() + '}';
  }

  private boolean iterate(byte[] prefix, KeyValueVisitor<K, V> visitor) {
    // Iteration runs in a transaction so that the visitor's writes are seen and commit together.
    return db.inTransaction(
        () ->
            db.iterate(
                family,
                prefix,
                (key, value) -> visitor.visit(decode(keyCodec, key), decode(valueCodec, value))),
        true);
  }

  private void write(TransactionalWrite write) {
    db.inTransaction(
        () -> {
          write.apply(db.currentTransaction());
          return null;
        },
        true);
  }

  private <T> byte[] encode(DbCodec<T> codec, T value) {
    int length = codec.encode(value, scratch, 0);
    return Arrays.copyOf(scratch.byteArray(), length);
  }

  private <T> T decode(DbCodec<T> codec, byte[] bytes) {
    view.wrap(bytes);
    return codec.decode(view, 0, bytes.length);
  }

  private DbInconsistentStateException inconsistent(
      K key, String expected, String actual, String operation) {
    return new DbInconsistentStateException(
        "Expected key "
            + (key instanceof byte[] bytes ? "0x" + HexFormat.of().formatHex(bytes) : key)
            + " "
            + expected
            + " in column family '"
            + family.name()
            + "', but "
            + actual
            + " ("
            + operation
            + ")");
  }

  @FunctionalInterface
  private interface TransactionalWrite {
    void apply(RocksTransaction transaction);
  }
}
