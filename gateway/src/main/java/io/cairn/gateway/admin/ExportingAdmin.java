package io.cairn.gateway.admin;

import io.cairn.gateway.GatewayException;
import io.cairn.gateway.routing.BrokerRequester;
import io.cairn.gateway.routing.Deadline;
import io.cairn.gateway.routing.Failures;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ExportingCodec;
import io.cairn.protocol.api.ExportingOperation;
import io.cairn.scheduler.Futures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Pauses and resumes exporting on every configured broker (each applies it to its partitions; the
 * paused flag survives restarts). Succeeds only when every broker confirmed; otherwise UNAVAILABLE
 * names the brokers that did not (sending the request again is safe).
 */
public final class ExportingAdmin {
  private final BrokerRequester requester;

  public ExportingAdmin(BrokerRequester requester) {
    this.requester = requester;
  }

  public CompletableFuture<ExportingResult> pause(Deadline deadline) {
    return apply(ExportingOperation.PAUSE, "PauseExporting", deadline);
  }

  public CompletableFuture<ExportingResult> resume(Deadline deadline) {
    return apply(ExportingOperation.RESUME, "ResumeExporting", deadline);
  }

  private CompletableFuture<ExportingResult> apply(
      ExportingOperation operation, String context, Deadline deadline) {
    byte[] payload = ExportingCodec.encodeRequest(operation);
    Map<Integer, CompletableFuture<Boolean>> answers = new TreeMap<>();
    for (int nodeId : requester.topology().current().brokers().keySet()) {
      answers.put(
          nodeId,
          requester
              .toBroker(
                  nodeId,
                  ApiDescriptor.TYPE_EXPORTING,
                  payload,
                  ExportingCodec::decodeResponse,
                  deadline,
                  context)
              .thenApply(
                  answer -> {
                    if (answer instanceof ApiResponse.Ok<Boolean> ok) {
                      return ok.body();
                    }
                    throw Failures.fromBroker(
                        (ApiResponse.Failure<Boolean>) answer, nodeId, context);
                  }));
    }
    return CompletableFuture.allOf(answers.values().toArray(CompletableFuture[]::new))
        .handle(
            (ignored, error) -> {
              List<Integer> confirmed = new ArrayList<>();
              List<String> failed = new ArrayList<>();
              boolean expectPaused = operation == ExportingOperation.PAUSE;
              answers.forEach(
                  (nodeId, answer) -> {
                    if (answer.isCompletedExceptionally()) {
                      failed.add(
                          "broker "
                              + nodeId
                              + ": "
                              + Futures.unwrap(answer.handle((v, e) -> e).join()).getMessage());
                    } else if (answer.join() != expectPaused) {
                      failed.add("broker " + nodeId + " reports paused=" + answer.join());
                    } else {
                      confirmed.add(nodeId);
                    }
                  });
              if (!failed.isEmpty()) {
                throw GatewayException.unavailable(
                    "Expected every broker to confirm "
                        + context
                        + ", but "
                        + String.join("; ", failed)
                        + " (confirmed: "
                        + confirmed
                        + "). Sending it again is safe");
              }
              return new ExportingResult(expectPaused, confirmed);
            });
  }
}
