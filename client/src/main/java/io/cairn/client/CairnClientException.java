package io.cairn.client;

import java.util.Objects;

/**
 * A failed call of {@link CairnClient} or {@link ManagementClient}: an {@link ErrorCode} and the
 * message of whoever refused it (the gateway's description, a problem detail, or the client's own
 * input check, "Expected &lt;rule&gt;, but &lt;actual&gt; (&lt;operation&gt;)").
 */
public final class CairnClientException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;

  public CairnClientException(ErrorCode code, String message) {
    this(code, message, null);
  }

  public CairnClientException(ErrorCode code, String message, Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
  }

  /** Why the call failed. */
  public ErrorCode code() {
    return code;
  }

  /** An exception for input the client refuses before sending anything. */
  static CairnClientException invalid(String message) {
    return new CairnClientException(ErrorCode.INVALID_ARGUMENT, message);
  }

  @Override
  public String toString() {
    return "CairnClientException{" + code + ": " + getMessage() + "}";
  }
}
