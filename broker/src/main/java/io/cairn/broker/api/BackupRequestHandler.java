package io.cairn.broker.api;

import io.cairn.backup.upload.StoreQueries;
import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupInProgressException;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.CheckpointPattern;
import io.cairn.backupapi.PageRequest;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.BackupCodec;
import io.cairn.protocol.api.BackupDetails;
import io.cairn.protocol.api.BackupEntries;
import io.cairn.protocol.api.BackupRequest;
import io.cairn.protocol.api.BackupState;
import io.cairn.protocol.api.BackupStatusEntry;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.scheduler.Futures;
import io.cairn.transport.MessagingService;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * {@code cairn-backup}: backup queries answered from the backup store every partition leader of
 * this broker writes to. The statuses are per partition and node, unaggregated (the gateway
 * aggregates them as {@code BackupStatusAggregator} does).
 *
 * <ul>
 *   <li>STATUS id: every partition status of the id the store holds (none when none exists);
 *   <li>LIST pattern: one page of the store's listing ({@code *}, {@code 12}, {@code 12*});
 *   <li>DELETE id: deletes every partition's backup of the id; CONFLICT while one is in progress.
 * </ul>
 *
 * Without a store (backup.store none, or backup.enabled false) every operation is answered
 * UNAVAILABLE with the reason; a bad pattern or page token is INVALID; a failing store is
 * UNAVAILABLE naming the failure.
 */
public final class BackupRequestHandler implements MessagingService.RequestHandler {

  static final String OPERATION = "backup";

  private final Optional<BackupStore> store;
  private final String noStoreReason;
  private final BrokerApiMetrics metrics;

  /**
   * @param store the store, if backups are configured and enabled
   * @param noStoreReason why there is none, e.g. "backups are not configured (backup.store is
   *     none)"
   */
  public BackupRequestHandler(
      Optional<BackupStore> store, String noStoreReason, BrokerApiMetrics metrics) {
    this.store = Objects.requireNonNull(store, "store");
    this.noStoreReason = Objects.requireNonNull(noStoreReason, "noStoreReason");
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
                        "Expected to answer a backup query, but " + cause(error))),
        BackupCodec::encodeResponse);
  }

  private CompletableFuture<ApiResponse<BackupEntries>> answer(byte[] payload) {
    BackupRequest request;
    try {
      request = BackupCodec.decodeRequest(payload);
    } catch (ProtocolException e) {
      return done(ResponseStatus.INVALID, e.getMessage());
    }
    if (store.isEmpty()) {
      return done(ResponseStatus.UNAVAILABLE, noStoreReason);
    }
    BackupStore backups = store.get();
    return switch (request.operation()) {
      case STATUS -> status(backups, request.checkpointId());
      case LIST -> list(backups, request);
      case DELETE -> delete(backups, request.checkpointId());
    };
  }

  private CompletableFuture<ApiResponse<BackupEntries>> status(
      BackupStore backups, long checkpointId) {
    return StoreQueries.listAll(backups, exactly(checkpointId))
        .handle(
            (statuses, error) ->
                error != null
                    ? storeFailed(error)
                    : ApiResponse.ok(new BackupEntries(entries(statuses), "")));
  }

  private CompletableFuture<ApiResponse<BackupEntries>> list(
      BackupStore backups, BackupRequest request) {
    CheckpointPattern pattern;
    PageRequest page;
    try {
      pattern = CheckpointPattern.parse(request.pattern());
      page =
          new PageRequest(
              request.pageToken().isEmpty() ? Optional.empty() : Optional.of(request.pageToken()),
              request.pageSize());
    } catch (IllegalArgumentException e) {
      return done(ResponseStatus.INVALID, e.getMessage());
    }
    CompletableFuture<BackupPage> listing;
    try {
      listing = backups.list(BackupIdentifierWildcard.ofCheckpoints(pattern), page);
    } catch (IllegalArgumentException e) {
      return done(ResponseStatus.INVALID, e.getMessage());
    }
    return listing.handle(
        (result, error) -> {
          if (error != null) {
            Throwable cause = Futures.unwrap(error);
            return cause instanceof IllegalArgumentException
                ? ApiResponse.failure(ResponseStatus.INVALID, cause.getMessage())
                : storeFailed(error);
          }
          return ApiResponse.ok(
              new BackupEntries(entries(result.statuses()), result.nextPageToken().orElse("")));
        });
  }

  private CompletableFuture<ApiResponse<BackupEntries>> delete(
      BackupStore backups, long checkpointId) {
    return StoreQueries.listAll(backups, exactly(checkpointId))
        .thenCompose(
            statuses -> {
              for (BackupStatus status : statuses) {
                if (status.statusCode() == BackupStatusCode.IN_PROGRESS) {
                  return done(
                      ResponseStatus.CONFLICT,
                      "Expected backup "
                          + checkpointId
                          + " to be COMPLETED or FAILED before deleting it, but partition "
                          + status.id().partitionId()
                          + " (node "
                          + status.id().nodeId()
                          + ") is IN_PROGRESS; wait for it to end");
                }
              }
              CompletableFuture<Void> deletes = CompletableFuture.completedFuture(null);
              for (BackupStatus status : statuses) {
                deletes = deletes.thenCompose(ignored -> backups.delete(status.id()));
              }
              return deletes.thenApply(ignored -> ApiResponse.ok(BackupEntries.none()));
            })
        .handle(
            (response, error) -> {
              if (error == null) {
                return response;
              }
              if (Futures.unwrap(error) instanceof BackupInProgressException inProgress) {
                return ApiResponse.failure(ResponseStatus.CONFLICT, inProgress.getMessage());
              }
              return storeFailed(error);
            });
  }

  private static BackupIdentifierWildcard exactly(long checkpointId) {
    return BackupIdentifierWildcard.ofCheckpoints(CheckpointPattern.exact(checkpointId));
  }

  /** The wire form of store statuses. */
  static List<BackupStatusEntry> entries(List<BackupStatus> statuses) {
    return statuses.stream().map(BackupRequestHandler::entry).toList();
  }

  static BackupStatusEntry entry(BackupStatus status) {
    if (!status.exists()) {
      return BackupStatusEntry.doesNotExist(
          status.id().nodeId(), status.id().partitionId(), status.id().checkpointId());
    }
    return new BackupStatusEntry(
        status.id().nodeId(),
        status.id().partitionId(),
        status.id().checkpointId(),
        BackupState.valueOf(status.statusCode().name()),
        status.failureReason().orElse(""),
        status.createdAt().map(Instant::toEpochMilli).orElseThrow(),
        status.lastUpdatedAt().map(Instant::toEpochMilli).orElseThrow(),
        status.descriptor().map(BackupRequestHandler::details));
  }

  private static BackupDetails details(BackupDescriptor descriptor) {
    return new BackupDetails(
        descriptor.checkpointPosition(),
        descriptor.snapshotId().orElse(""),
        descriptor.numberOfPartitions(),
        descriptor.brokerVersion(),
        descriptor.stateDigest(),
        descriptor.fileCount(),
        descriptor.sizeBytes());
  }

  private static ApiResponse<BackupEntries> storeFailed(Throwable error) {
    return ApiResponse.failure(
        ResponseStatus.UNAVAILABLE,
        "Expected the backup store to answer, but it failed: "
            + cause(error)
            + ". Check the store's logs and settings (backup.*)");
  }

  private static String cause(Throwable error) {
    Throwable cause = Futures.unwrap(error);
    return cause.getClass().getSimpleName()
        + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
  }

  private static CompletableFuture<ApiResponse<BackupEntries>> done(
      ResponseStatus status, String reason) {
    return CompletableFuture.completedFuture(ApiResponse.failure(status, reason));
  }
}
