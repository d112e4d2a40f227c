package io.cairn.broker.api;

import io.cairn.backupapi.BackupStore;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.protocol.api.RestorePointEntry;
import io.cairn.protocol.api.RestorePointsCodec;
import io.cairn.restore.RestoreException;
import io.cairn.restore.catalog.RestorePoints;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.Futures;
import io.cairn.transport.MessagingService;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * {@code cairn-restore-points}: the newest restore points of the log archive, read from the backup
 * store by {@link RestorePoints#newest} — the same checks a point-in-time restore makes, so what it
 * calls restorable a restore resolves. Any broker answers, in restore mode too (the store is
 * shared); the reads run on {@code executor}, one listing at a time, never on the request threads.
 *
 * <p>Without a store every request is answered UNAVAILABLE with the reason; a limit outside [1,
 * {@link RestorePointEntry#LIMIT_MAX}] is INVALID; a failing store, or a listing already queued
 * behind others, is UNAVAILABLE naming why.
 */
public final class RestorePointsHandler implements MessagingService.RequestHandler {

  static final String OPERATION = "restore-points";

  /** The longest one store read of a listing may take. */
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

  private final Optional<BackupStore> store;
  private final String noStoreReason;
  private final int partitionCount;
  private final Clock clock;
  private final Executor executor;
  private final BrokerApiMetrics metrics;

  /**
   * @param store the store, if backups are configured and enabled
   * @param noStoreReason why there is none
   * @param executor where a listing waits on the store
   */
  public RestorePointsHandler(
      Optional<BackupStore> store,
      String noStoreReason,
      int partitionCount,
      Clock clock,
      Executor executor,
      BrokerApiMetrics metrics) {
    this.store = Objects.requireNonNull(store, "store");
    this.noStoreReason = Objects.requireNonNull(noStoreReason, "noStoreReason");
    this.partitionCount = partitionCount;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public CompletableFuture<byte[]> handle(int senderNodeId, byte[] payload) {
    return metrics.counted(OPERATION, answer(payload), RestorePointsCodec::encodeResponse);
  }

  private CompletableFuture<ApiResponse<List<RestorePointEntry>>> answer(byte[] payload) {
    int limit;
    try {
      limit = RestorePointsCodec.decodeRequest(payload);
    } catch (ProtocolException e) {
      return done(ResponseStatus.INVALID, e.getMessage());
    }
    if (store.isEmpty()) {
      return done(ResponseStatus.UNAVAILABLE, noStoreReason);
    }
    RestorePoints points = new RestorePoints(store.get(), READ_TIMEOUT, clock);
    try {
      return CompletableFuture.supplyAsync(() -> list(points, limit), executor)
          .exceptionally(
              error ->
                  ApiResponse.failure(
                      ResponseStatus.INTERNAL_ERROR,
                      "Expected to list the restore points, but " + Futures.unwrap(error)));
    } catch (RejectedExecutionException e) {
      return done(
          ResponseStatus.UNAVAILABLE,
          "Expected to list the restore points, but other listings are queued; retry shortly");
    }
  }

  private ApiResponse<List<RestorePointEntry>> list(RestorePoints points, int limit) {
    try {
      return ApiResponse.ok(
          points.newest(partitionCount, limit).stream()
              .map(
                  point ->
                      new RestorePointEntry(
                          point.checkpointId(),
                          point.takenAt().toEpochMilli(),
                          point.restorable(),
                          point.detail()))
              .toList());
    } catch (RestoreException e) {
      return ApiResponse.failure(
          ResponseStatus.UNAVAILABLE,
          "Expected to list the restore points, but " + e.problem() + ": " + e.getMessage());
    }
  }

  private static CompletableFuture<ApiResponse<List<RestorePointEntry>>> done(
      ResponseStatus status, String reason) {
    return CompletableFuture.completedFuture(ApiResponse.failure(status, reason));
  }
}
