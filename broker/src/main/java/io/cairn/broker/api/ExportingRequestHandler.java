package io.cairn.broker.api;

import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ExportingCodec;
import io.cairn.protocol.api.ExportingOperation;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.transport.MessagingService;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * {@code cairn-exporting}: exporters (DESIGN.md §11) are not built yet, so there is nothing to
 * pause, resume or report. Every operation is answered {@code UNAVAILABLE} saying so, rather than
 * pretending a paused flag that nothing honours.
 */
public final class ExportingRequestHandler implements MessagingService.RequestHandler {

  static final String OPERATION = "exporting";

  private final int nodeId;
  private final BrokerApiMetrics metrics;

  public ExportingRequestHandler(final int nodeId, final BrokerApiMetrics metrics) {
    this.nodeId = nodeId;
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public CompletableFuture<byte[]> handle(final int senderNodeId, final byte[] payload) {
    ApiResponse<Boolean> response;
    try {
      final ExportingOperation operation = ExportingCodec.decodeRequest(payload);
      response =
          ApiResponse.failure(
              ResponseStatus.UNAVAILABLE,
              "Expected exporters to "
                  + describe(operation)
                  + ", but exporting is not available yet in this version: no exporter runs on"
                  + " node "
                  + nodeId
                  + ", so there is nothing to pause, resume or report");
    } catch (final ProtocolException e) {
      response = ApiResponse.failure(ResponseStatus.INVALID, e.getMessage());
    }
    metrics.request(OPERATION, response.status());
    return CompletableFuture.completedFuture(ExportingCodec.encodeResponse(response));
  }

  private static String describe(final ExportingOperation operation) {
    return switch (operation) {
      case PAUSE -> "pause";
      case RESUME -> "resume";
      case STATUS -> "report their state";
    };
  }
}
