package io.cairn.gateway.routing;

/**
 * An OK answer and where it came from.
 *
 * @param partitionId the partition the call was for (0 for broker-level calls)
 * @param nodeId the broker that answered
 * @param body the answer's body
 * @param resentAfterDoubt whether an earlier attempt of an idempotent call may have reached a
 *     broker (it timed out or its connection broke after sending), so this answer may describe the
 *     effect of that earlier attempt
 */
public record Routed<T>(int partitionId, int nodeId, T body, boolean resentAfterDoubt) {

  public Routed(int partitionId, int nodeId, T body) {
    this(partitionId, nodeId, body, false);
  }
}
