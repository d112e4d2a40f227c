package io.cairn.streamprocessor.processing;

/**
 * The partition's state no longer follows its log; the stream processor must stop and report FAILED
 * with this message. Thrown by the processing machinery only.
 */
public final class PartitionFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public PartitionFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
