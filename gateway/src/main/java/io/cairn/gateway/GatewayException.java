package io.cairn.gateway;

import java.util.Objects;

/**
 * A gateway operation failed for a reason the caller should see. The message follows "Expected
 * &lt;rule&gt;, but &lt;actual&gt; (&lt;context&gt;)" and, where it helps, says what to do.
 */
public final class GatewayException extends RuntimeException {
  private final GatewayErrorCode code;

  public GatewayException(GatewayErrorCode code, String message) {
    super(message, null, false, false);
    this.code = Objects.requireNonNull(code, "code");
  }

  public GatewayException(GatewayErrorCode code, String message, Throwable cause) {
    super(message, cause, false, false);
    this.code = Objects.requireNonNull(code, "code");
  }

  public GatewayErrorCode code() {
    return code;
  }

  /** {@link GatewayErrorCode#INVALID_ARGUMENT} with this message. */
  public static GatewayException invalid(String message) {
    return new GatewayException(GatewayErrorCode.INVALID_ARGUMENT, message);
  }

  /** {@link GatewayErrorCode#UNAVAILABLE} with this message. */
  public static GatewayException unavailable(String message) {
    return new GatewayException(GatewayErrorCode.UNAVAILABLE, message);
  }
}
