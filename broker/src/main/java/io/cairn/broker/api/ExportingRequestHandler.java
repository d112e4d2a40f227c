package io.cairn.broker.api;

import io.cairn.broker.exporting.ExportingState;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ExportingCodec;
import io.cairn.protocol.api.ExportingOperation;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.transport.MessagingService;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code cairn-exporting}: pauses, resumes or reports exporting on this broker ({@link
 * ExportingState}). The gateway asks every broker, so pausing is cluster-wide. A change is durable
 * (fsynced) before it is answered: the answer {@code OK(paused)} survives a restart. Operations are
 * idempotent; a broker that cannot write its state file answers {@code UNAVAILABLE} and stays as it
 * was.
 */
public final class ExportingRequestHandler implements MessagingService.RequestHandler {

  static final String OPERATION = "exporting";

  private static final Logger LOG = LoggerFactory.getLogger(ExportingRequestHandler.class);

  private final int nodeId;
  private final ExportingState exporting;
  private final BrokerApiMetrics metrics;

  public ExportingRequestHandler(int nodeId, ExportingState exporting, BrokerApiMetrics metrics) {
    this.nodeId = nodeId;
    this.exporting = Objects.requireNonNull(exporting, "exporting");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public CompletableFuture<byte[]> handle(int senderNodeId, byte[] payload) {
    ApiResponse<Boolean> response;
    try {
      ExportingOperation operation = ExportingCodec.decodeRequest(payload);
      switch (operation) {
        case PAUSE -> exporting.pause();
        case RESUME -> exporting.resume();
        case STATUS -> {
          // report only
        }
      }
      response = ApiResponse.ok(exporting.isPaused());
    } catch (ProtocolException e) {
      response = ApiResponse.failure(ResponseStatus.INVALID, e.getMessage());
    } catch (UncheckedIOException e) {
      LOG.warn("Changing the exporting state of node {} failed", nodeId, e);
      response =
          ApiResponse.failure(
              ResponseStatus.UNAVAILABLE,
              "Expected node "
                  + nodeId
                  + " to store the exporting state durably, but: "
                  + e.getMessage()
                  + ". Check its data directory; sending the request again is safe");
    }
    metrics.request(OPERATION, response.status());
    return CompletableFuture.completedFuture(ExportingCodec.encodeResponse(response));
  }
}
