package io.cairn.broker.api;

import io.cairn.broker.restore.ApiRestore;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.NodeRestoreState;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.protocol.api.RestoreCodec;
import io.cairn.protocol.api.RestoreRequest;
import io.cairn.transport.MessagingService;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * {@code cairn-restore}: starts a restore on a broker waiting in restore mode, or says how it
 * stands. A broker that was not started in restore mode (or found data in its directory) answers
 * every status with PROCESSING and refuses a start with {@code CONFLICT}: it holds data.
 */
public final class RestoreRequestHandler implements MessagingService.RequestHandler {

  static final String OPERATION = "restore";

  private final int nodeId;
  private final Optional<ApiRestore> restore;
  private final String notRestoring;
  private final BrokerApiMetrics metrics;

  /**
   * @param restore the restore this broker waits for; empty when it started with its data
   * @param restoreMode whether {@code data.restoreMode} is set (without a restore, the directory
   *     held data when the broker started)
   */
  public RestoreRequestHandler(
      int nodeId, Optional<ApiRestore> restore, boolean restoreMode, BrokerApiMetrics metrics) {
    this.nodeId = nodeId;
    this.restore = Objects.requireNonNull(restore, "restore");
    this.notRestoring =
        restoreMode
            ? "its data directory held data when it started"
            : "it was started without data.restoreMode";
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public CompletableFuture<byte[]> handle(int senderNodeId, byte[] payload) {
    return metrics.counted(
        OPERATION,
        answer(payload)
            .exceptionally(
                error ->
                    ApiResponse.failure(
                        ResponseStatus.INTERNAL_ERROR,
                        "The restore state of node " + nodeId + " could not be read: " + error)),
        RestoreCodec::encodeResponse);
  }

  private CompletableFuture<ApiResponse<NodeRestoreState>> answer(byte[] payload) {
    RestoreRequest request;
    try {
      request = RestoreCodec.decodeRequest(payload);
    } catch (ProtocolException e) {
      return CompletableFuture.completedFuture(
          ApiResponse.failure(ResponseStatus.INVALID, e.getMessage()));
    }
    if (restore.isEmpty()) {
      if (!request.isStart()) {
        return CompletableFuture.completedFuture(
            ApiResponse.ok(ApiRestore.processing(nodeId, notRestoring)));
      }
      return CompletableFuture.completedFuture(
          ApiResponse.failure(
              ResponseStatus.CONFLICT,
              "Expected node "
                  + nodeId
                  + " to wait for a restore, but "
                  + notRestoring
                  + ": a restore needs a cluster started with empty data directories and"
                  + " data.restoreMode: true"));
    }
    if (!request.isStart()) {
      return restore.get().state().thenApply(ApiResponse::ok);
    }
    try {
      return restore.get().start(request).thenApply(ApiResponse::ok);
    } catch (ApiRestore.Refused e) {
      return CompletableFuture.completedFuture(
          ApiResponse.failure(ResponseStatus.CONFLICT, e.getMessage()));
    }
  }
}
