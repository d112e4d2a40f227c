package io.cairn.broker.partition;

/**
 * A partition's recovered state does not match what its snapshot says it is. Not retried: the
 * partition is FAILED (restore it from a replica or a backup).
 */
public final class PartitionStateCorruptedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public PartitionStateCorruptedException(String message) {
    super(message);
  }
}
