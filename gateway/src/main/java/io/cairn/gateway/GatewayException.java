package io.cairn.gateway;

import java.util.Objects;

/**
 * A gateway operation failed for a reason the caller should see. The message follows "Expected
 * &lt;rule&gt;, but &lt;actual&gt; (&lt;context&gt;)" and, where it helps, says what to do.
 */
public final class GatewayException extends RuntimeException {
  private final GatewayErrorCode code;

  public GatewayException(final GatewayErrorCode code, final String message) {
    super(message, null, false, false);
    this.code = Objects.requireNonNull(code, "code");
  }

  public GatewayException(
      final GatewayErrorCode code, final String message, final Throwable cause) {
    super(message, cause, false, false);
    this.code = Objects.requireNonNull(code, "code");
  }

  public GatewayErrorCode code() {
    return code;
  }

  /** {@link GatewayErrorCode#INVALID_ARGUMENT} with this message. */
  public static GatewayException invalid(final String message) {
    return new GatewayException(GatewayErrorCode.INVALID_ARGUMENT, message);
  }

  /** {@link GatewayErrorCode#UNAVAILABLE} with this message. */
  public static GatewayException unavailable(final String message) {
    return new GatewayException(GatewayErrorCode.UNAVAILABLE, message);
  }
}
