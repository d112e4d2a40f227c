package io.cairn.streamprocessor;

/**
 * An event could not be applied to state: no applier is registered for it, or the applier threw.
 * The state no longer follows the log, so the partition fails; it is never skipped.
 */
public final class EventApplierException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public EventApplierException(String message, Throwable cause) {
    super(message, cause);
  }
}
