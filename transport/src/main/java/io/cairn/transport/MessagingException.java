package io.cairn.transport;

/** Why a message could not be exchanged. Each cause is its own subclass so callers can match it. */
public abstract class MessagingException extends RuntimeException {

  protected MessagingException(String message) {
    super(message, null, false, false);
  }

  /** No response arrived within the request's timeout. */
  public static final class Timeout extends MessagingException {
    public Timeout(String message) {
      super(message);
    }
  }

  /** The remote member has no handler registered for the message type. */
  public static final class NoRemoteHandler extends MessagingException {
    public NoRemoteHandler(String message) {
      super(message);
    }
  }

  /** The remote handler threw or completed its future exceptionally. */
  public static final class RemoteHandlerFailure extends MessagingException {
    public RemoteHandlerFailure(String message) {
      super(message);
    }
  }

  /** No connection to the member could be made, or it was lost before the response arrived. */
  public static final class Unreachable extends MessagingException {
    public Unreachable(String message) {
      super(message);
    }
  }

  /**
   * The message was refused locally: unknown member, payload over the frame limit, closed service.
   */
  public static final class Rejected extends MessagingException {
    public Rejected(String message) {
      super(message);
    }
  }
}
