package io.cairn.db;

/**
 * A broken invariant of the state: an insert of a key that exists, an update or a required delete
 * of a key that does not. The caller's model of the state disagrees with the state; the command
 * being processed must fail, and its transaction is rolled back.
 */
public final class DbInconsistentStateException extends DbException {

  public DbInconsistentStateException(String message) {
    super(message);
  }
}
