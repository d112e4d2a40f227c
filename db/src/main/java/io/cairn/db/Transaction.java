package io.cairn.db;

/**
 * The writes of one unit of work (one processed command), applied atomically by {@link #commit()}
 * or dropped by {@link #rollback()}, together with their effect on the state digest.
 *
 * <p>While it is open, every {@link ColumnFamily} operation of its database runs in it and sees its
 * writes. One transaction at a time per database. After {@code commit} or {@code rollback} it is
 * closed for good; {@link #close()} rolls back if it is still open, so try-with-resources never
 * leaves one open.
 */
public interface Transaction extends AutoCloseable {

  /**
   * Writes every change of this transaction, and the new state digest, in one atomic batch.
   *
   * @throws DbException if the write failed; the transaction is then rolled back (nothing was
   *     written, the digest is unchanged)
   * @throws IllegalStateException if the transaction is not open
   */
  void commit();

  /**
   * Drops every change of this transaction; data and digest stay as they were before it.
   *
   * @throws IllegalStateException if the transaction is not open
   */
  void rollback();

  /** True until {@link #commit()} or {@link #rollback()}. */
  boolean isOpen();

  /** Rolls back if still open; does nothing otherwise. */
  @Override
  void close();
}
