package io.cairn.protocol.api;

import java.util.Objects;

/**
 * A broker's answer: either {@link Ok} with a body, or a {@link Failure} with a status other than
 * {@link ResponseStatus#OK}.
 *
 * @param <T> the body type of the message
 */
public sealed interface ApiResponse<T> permits ApiResponse.Ok, ApiResponse.Failure {

  /** The status byte of this response. */
  ResponseStatus status();

  /** A successful response. */
  static <T> ApiResponse<T> ok(T body) {
    return new Ok<>(body);
  }

  /** {@link ResponseStatus#NOT_LEADER}, naming the leader this broker knows of, or {@code -1}. */
  static <T> ApiResponse<T> notLeader(int leaderNodeId, String reason) {
    return new Failure<>(ResponseStatus.NOT_LEADER, leaderNodeId, reason);
  }

  /** A failure without a known leader. */
  static <T> ApiResponse<T> failure(ResponseStatus status, String reason) {
    return new Failure<>(status, ApiDescriptor.NO_NODE_ID, reason);
  }

  /**
   * A successful response.
   *
   * @param body never null
   */
  record Ok<T>(T body) implements ApiResponse<T> {
    public Ok {
      Objects.requireNonNull(body, "body");
    }

    @Override
    public ResponseStatus status() {
      return ResponseStatus.OK;
    }
  }

  /**
   * A failure.
   *
   * @param status never {@link ResponseStatus#OK}
   * @param leaderNodeId the leader the broker knows of ({@code >= 0}) for {@code NOT_LEADER}, else
   *     {@link ApiDescriptor#NO_NODE_ID}
   * @param reason human-readable; cut to at most {@link ApiDescriptor#REASON_MAX_BYTES} bytes of
   *     UTF-8 so every failure can be sent
   */
  record Failure<T>(ResponseStatus status, int leaderNodeId, String reason)
      implements ApiResponse<T> {
    public Failure {
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(reason, "reason");
      if (status == ResponseStatus.OK) {
        throw new IllegalArgumentException("Expected a failure status, but was OK");
      }
      if (leaderNodeId < ApiDescriptor.NO_NODE_ID) {
        throw new IllegalArgumentException(
            "Expected leaderNodeId >= -1, but was " + leaderNodeId + " (" + status + ")");
      }
      reason = ApiStrings.truncate(reason, ApiDescriptor.REASON_MAX_BYTES);
    }

    /** Recasts this failure to another body type. */
    @SuppressWarnings("unchecked")
    public <U> Failure<U> cast() {
      return (Failure<U>) this;
    }
  }
}
