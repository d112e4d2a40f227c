package io.cairn.logstreams;

/**
 * A committed entry of the log cannot be decoded into records. The log is corrupt or was written by
 * an incompatible version; processing past it would silently skip records, so the reader stops and
 * the partition must fail.
 */
public final class CorruptedLogException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CorruptedLogException(String message, Throwable cause) {
    super(message, cause);
  }

  public CorruptedLogException(String message) {
    super(message);
  }
}
