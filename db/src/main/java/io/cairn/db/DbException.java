package io.cairn.db;

/** A storage failure: RocksDB could not read, write, open, checkpoint or close. */
public class DbException extends RuntimeException {

  public DbException(String message) {
    super(message);
  }

  public DbException(String message, Throwable cause) {
    super(message, cause);
  }
}
