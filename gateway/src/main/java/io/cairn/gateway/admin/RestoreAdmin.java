package io.cairn.gateway.admin;

import io.cairn.gateway.GatewayErrorCode;
import io.cairn.gateway.GatewayException;
import io.cairn.gateway.routing.BrokerRequester;
import io.cairn.gateway.routing.Deadline;
import io.cairn.gateway.routing.Failures;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.NodeRestoreState;
import io.cairn.protocol.api.NodeRestoreState.Phase;
import io.cairn.protocol.api.RestoreCodec;
import io.cairn.protocol.api.RestorePointEntry;
import io.cairn.protocol.api.RestorePointsCodec;
import io.cairn.protocol.api.RestoreRequest;
import io.cairn.scheduler.Futures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * A restore through the API ({@code cairn-restore} to every configured broker). A start first asks
 * every broker how it stands and refuses unless each waits in restore mode (a broker holding data
 * or restoring already is named); then the broker with the lowest id resolves the selection (the
 * newest backup, a time) and every other broker is asked for exactly what it resolved — the same
 * backup, or the same restore point — so that the cluster is restored to one cut even while the
 * store gains backups. Thread-safe and non-blocking.
 */
public final class RestoreAdmin {

  static final String START = "Restore";
  static final String STATUS = "GetRestoreStatus";
  static final String POINTS = "ListRestorePoints";

  /** How many restore points a listing without a limit shows. */
  public static final int DEFAULT_POINTS = 100;

  private final BrokerRequester requester;

  public RestoreAdmin(BrokerRequester requester) {
    this.requester = requester;
  }

  /**
   * Starts the restore {@code request} selects on every broker; completes once each started.
   *
   * @throws IllegalArgumentException if {@code request} is a status request
   */
  public CompletableFuture<ClusterRestore> start(RestoreRequest request, Deadline deadline) {
    if (!request.isStart()) {
      throw new IllegalArgumentException("Expected a restore to start, but was " + request);
    }
    return status(deadline)
        .thenCompose(
            before -> {
              refuseUnlessWaiting(before);
              List<Integer> nodes = List.copyOf(before.brokers().keySet());
              int first = nodes.get(0);
              return startOn(first, request, deadline)
                  .thenCompose(resolved -> startOthers(nodes, resolved, deadline));
            });
  }

  /** How the restore stands on every configured broker; a broker that does not answer is named. */
  public CompletableFuture<ClusterRestore> status(Deadline deadline) {
    Map<Integer, CompletableFuture<NodeRestoreState>> answers = new TreeMap<>();
    for (int nodeId : requester.topology().current().brokers().keySet()) {
      answers.put(nodeId, send(nodeId, RestoreRequest.status(), deadline, STATUS));
    }
    return CompletableFuture.allOf(answers.values().toArray(CompletableFuture[]::new))
        .handle((ignored, error) -> fold(answers));
  }

  /**
   * The newest restore points of the log archive, newest first, from the first broker that answers
   * (any broker reads the shared store, in restore mode too).
   *
   * @param limit the most points, in [1, {@link RestorePointEntry#LIMIT_MAX}]; 0 for {@value
   *     #DEFAULT_POINTS}
   */
  public CompletableFuture<List<RestorePointEntry>> restorePoints(int limit, Deadline deadline) {
    if (limit < 0 || limit > RestorePointEntry.LIMIT_MAX) {
      return CompletableFuture.failedFuture(
          GatewayException.invalid(
              "Expected limit in [1, "
                  + RestorePointEntry.LIMIT_MAX
                  + "] (0 for "
                  + DEFAULT_POINTS
                  + "), but was "
                  + limit
                  + " ("
                  + POINTS
                  + ")"));
    }
    var topology = requester.topology().current();
    List<Integer> candidates = new ArrayList<>(topology.reachableBrokers());
    candidates.addAll(topology.brokers().keySet());
    return requester
        .toAnyBroker(
            candidates,
            ApiDescriptor.TYPE_RESTORE_POINTS,
            RestorePointsCodec.encodeRequest(limit == 0 ? DEFAULT_POINTS : limit),
            RestorePointsCodec::decodeResponse,
            deadline,
            POINTS)
        .thenApply(
            routed -> {
              if (routed.body() instanceof ApiResponse.Ok<List<RestorePointEntry>> ok) {
                return ok.body();
              }
              throw Failures.fromBroker(
                  (ApiResponse.Failure<List<RestorePointEntry>>) routed.body(),
                  routed.nodeId(),
                  POINTS);
            });
  }

  private static ClusterRestore fold(Map<Integer, CompletableFuture<NodeRestoreState>> answers) {
    Map<Integer, Optional<NodeRestoreState>> brokers = new TreeMap<>();
    Map<Integer, String> unreachable = new TreeMap<>();
    answers.forEach(
        (nodeId, answer) -> {
          if (answer.isCompletedExceptionally()) {
            brokers.put(nodeId, Optional.empty());
            unreachable.put(nodeId, Futures.unwrap(answer.handle((v, e) -> e).join()).getMessage());
          } else {
            brokers.put(nodeId, Optional.of(answer.join()));
          }
        });
    return new ClusterRestore(brokers, unreachable);
  }

  private static void refuseUnlessWaiting(ClusterRestore cluster) {
    List<String> problems = new ArrayList<>();
    boolean unreachable = false;
    for (Map.Entry<Integer, Optional<NodeRestoreState>> broker : cluster.brokers().entrySet()) {
      int nodeId = broker.getKey();
      if (broker.getValue().isEmpty()) {
        unreachable = true;
        problems.add("broker " + nodeId + " did not answer: " + cluster.detailOf(nodeId));
        continue;
      }
      NodeRestoreState state = broker.getValue().get();
      switch (state.phase()) {
        case WAITING -> {}
        case FAILED -> {
          if (!state.partitions().isEmpty() && state.finishedMillis() > 0) {
            problems.add("broker " + nodeId + " restored and failed after: " + state.detail());
          }
        }
        case PROCESSING -> problems.add("broker " + nodeId + " holds data: " + state.detail());
        default ->
            problems.add(
                "broker " + nodeId + " is " + state.phase() + " " + state.selection() + " already");
      }
    }
    if (!problems.isEmpty()) {
      throw new GatewayException(
          unreachable ? GatewayErrorCode.UNAVAILABLE : GatewayErrorCode.FAILED_PRECONDITION,
          "Expected every broker to wait for a restore (started with an empty data directory and"
              + " data.restoreMode: true), but "
              + String.join("; ", problems)
              + ". Nothing was started");
    }
  }

  private CompletableFuture<NodeRestoreState> startOn(
      int nodeId, RestoreRequest request, Deadline deadline) {
    return send(nodeId, request, deadline, START)
        .thenApply(
            state -> {
              if (state.phase() == Phase.FAILED) {
                throw new GatewayException(
                    GatewayErrorCode.FAILED_PRECONDITION,
                    "Expected broker "
                        + nodeId
                        + " to restore "
                        + request.describe()
                        + ", but it failed: "
                        + state.detail());
              }
              return state;
            });
  }

  /** The others restore exactly what the first resolved: its restore point, or its backup. */
  private CompletableFuture<ClusterRestore> startOthers(
      List<Integer> nodes, NodeRestoreState resolved, Deadline deadline) {
    RestoreRequest exact =
        resolved.restorePointId() > 0
            ? new RestoreRequest(RestoreRequest.Kind.CHECKPOINT_ID, resolved.restorePointId())
            : new RestoreRequest(RestoreRequest.Kind.BACKUP_ID, resolved.backupId());
    Map<Integer, CompletableFuture<NodeRestoreState>> answers = new TreeMap<>();
    answers.put(nodes.get(0), CompletableFuture.completedFuture(resolved));
    for (int nodeId : nodes.subList(1, nodes.size())) {
      answers.put(nodeId, startOn(nodeId, exact, deadline));
    }
    return CompletableFuture.allOf(answers.values().toArray(CompletableFuture[]::new))
        .handle(
            (ignored, error) -> {
              ClusterRestore started = fold(answers);
              if (error != null) {
                throw new GatewayException(
                    GatewayErrorCode.UNAVAILABLE,
                    "Expected every broker to start restoring "
                        + exact.describe()
                        + ", but "
                        + Futures.unwrap(error).getMessage()
                        + " (started on "
                        + started.brokers().entrySet().stream()
                            .filter(e -> e.getValue().isPresent())
                            .map(Map.Entry::getKey)
                            .toList()
                        + "; GET the restore status to follow them)");
              }
              return started;
            });
  }

  private CompletableFuture<NodeRestoreState> send(
      int nodeId, RestoreRequest request, Deadline deadline, String context) {
    return requester
        .toBroker(
            nodeId,
            ApiDescriptor.TYPE_RESTORE,
            RestoreCodec.encodeRequest(request),
            RestoreCodec::decodeResponse,
            deadline,
            context)
        .thenApply(
            answer -> {
              if (answer instanceof ApiResponse.Ok<NodeRestoreState> ok) {
                return ok.body();
              }
              throw Failures.fromBroker(
                  (ApiResponse.Failure<NodeRestoreState>) answer, nodeId, context);
            });
  }
}
