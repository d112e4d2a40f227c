package io.cairn.gateway.admin;

import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusAggregator;
import io.cairn.backupapi.ClusterBackupStatus;
import io.cairn.backupapi.ClusterBackupStatusCode;
import io.cairn.gateway.GatewayErrorCode;
import io.cairn.gateway.GatewayException;
import io.cairn.gateway.routing.BrokerRequester;
import io.cairn.gateway.routing.CommandCall;
import io.cairn.gateway.routing.Deadline;
import io.cairn.gateway.routing.Failures;
import io.cairn.gateway.routing.Rejections;
import io.cairn.gateway.routing.Routed;
import io.cairn.gateway.topology.ClusterTopology;
import io.cairn.gateway.topology.PartitionLeader;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.BackupCodec;
import io.cairn.protocol.api.BackupEntries;
import io.cairn.protocol.api.BackupRequest;
import io.cairn.protocol.api.BackupStatusEntry;
import io.cairn.scheduler.Futures;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * The cluster's backups, for the admin gRPC service and the management HTTP endpoints. Every call
 * is refused with UNAVAILABLE while the topology does not know a leader for every partition.
 *
 * <ul>
 *   <li><b>take(id)</b> writes {@code CHECKPOINT CREATE(id)} to every partition's leader. It
 *       succeeds iff at least one partition created the checkpoint and none is at a higher id;
 *       otherwise ALREADY_EXISTS names the highest id. A partition that could not be reached makes
 *       the call UNAVAILABLE; sending the same id again is safe (partitions that have it answer
 *       IGNORED).
 *   <li><b>get(id)</b> reads every partition status of the id from one broker (the store is shared)
 *       and aggregates them with {@link BackupStatusAggregator}; NOT_FOUND when no partition has
 *       it.
 *   <li><b>list</b> reads every status page by page (at most {@value #LIST_PAGES_MAX} pages of
 *       {@value #LIST_PAGE_SIZE}), aggregates per id and pages the result newest first; the page
 *       token is the last id of the previous page.
 *   <li><b>schedule</b> asks the leader of partition 1, which runs the backup schedule, and the
 *       store for its last run's backup.
 *   <li><b>delete(id)</b> deletes every partition's backup of the id; FAILED_PRECONDITION while one
 *       is in progress; deleting a missing backup succeeds.
 * </ul>
 *
 * <p>Thread-safe and non-blocking.
 */
public final class BackupAdmin {
  static final int LIST_PAGE_SIZE = ApiDescriptor.PAGE_SIZE_MAX;
  static final int LIST_PAGES_MAX = 100;
  public static final int DEFAULT_PAGE_SIZE = 100;
  public static final int MAX_PAGE_SIZE = 1000;
  private static final Pattern PAGE_TOKEN = Pattern.compile("[1-9][0-9]{0,18}");

  private final BrokerRequester requester;
  private final BackupScheduleAdmin schedule;

  public BackupAdmin(BrokerRequester requester) {
    this.requester = requester;
    this.schedule = new BackupScheduleAdmin(requester);
  }

  /**
   * The backup schedule, from the broker running it (see {@link BackupScheduleAdmin}), with the
   * cluster state of its last run's backup.
   */
  public CompletableFuture<ScheduleView> schedule(Deadline deadline) {
    return schedule
        .status(deadline)
        .thenCompose(
            state -> {
              if (state.lastRun().isEmpty()) {
                return CompletableFuture.completedFuture(new ScheduleView(state, Optional.empty()));
              }
              return get(state.lastRun().get().backupId(), deadline)
                  .handle(
                      (status, error) ->
                          new ScheduleView(
                              state,
                              error == null
                                  ? Optional.of(status.statusCode())
                                  : Futures.unwrap(error) instanceof GatewayException refused
                                          && refused.code() == GatewayErrorCode.NOT_FOUND
                                      ? Optional.of(ClusterBackupStatusCode.DOES_NOT_EXIST)
                                      : Optional.empty()));
            });
  }

  /** Takes backup {@code backupId}. See the class comment. */
  public CompletableFuture<TakeBackupResult> take(long backupId, Deadline deadline) {
    String context = "TakeBackup " + backupId;
    ClusterTopology topology;
    try {
      checkBackupId(backupId, "TakeBackup");
      topology = requireAllLeaders(context);
    } catch (GatewayException e) {
      return CompletableFuture.failedFuture(e);
    }
    List<CompletableFuture<PartitionOutcome>> outcomes = new ArrayList<>();
    for (int partition = 1; partition <= topology.partitionCount(); partition++) {
      int partitionId = partition;
      Record command =
          new Record(
              RecordMetadata.builder().command(CheckpointIntent.CREATE).build(),
              new CheckpointValue(
                  backupId, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP));
      outcomes.add(
          requester
              .toLeader(
                  CommandCall.forPartition("TakeBackup", partitionId, command, true), deadline)
              .handle((routed, error) -> new PartitionOutcome(partitionId, routed, error)));
    }
    return CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new))
        .thenApply(
            ignored ->
                decideTake(backupId, outcomes.stream().map(CompletableFuture::join).toList()));
  }

  /** The answer of one partition to CHECKPOINT CREATE: the routed record, or the error. */
  private record PartitionOutcome(int partitionId, Routed<Record> routed, Throwable error) {}

  private static TakeBackupResult decideTake(long backupId, List<PartitionOutcome> outcomes) {
    List<PartitionCheckpointResult> results = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    long highest = 0;
    int highestPartition = 0;
    boolean anyCreated = false;
    for (PartitionOutcome outcome : outcomes) {
      if (outcome.error() != null) {
        failures.add(
            "partition "
                + outcome.partitionId()
                + ": "
                + Futures.unwrap(outcome.error()).getMessage());
        continue;
      }
      Record record = outcome.routed().body();
      if (record.metadata().recordType() == RecordType.REJECTION) {
        failures.add(
            "partition "
                + outcome.partitionId()
                + ": "
                + Rejections.toException(record).getMessage());
        continue;
      }
      if (!(record.value() instanceof CheckpointValue checkpoint)) {
        failures.add(
            "partition "
                + outcome.partitionId()
                + ": Expected a CHECKPOINT event, but was "
                + record.metadata().valueType()
                + " "
                + record.metadata().intent().name());
        continue;
      }
      // An earlier attempt that timed out may have created it; then IGNORED names this very id.
      boolean created =
          record.metadata().intent() == CheckpointIntent.CREATED
              || (outcome.routed().resentAfterDoubt() && checkpoint.checkpointId() == backupId);
      anyCreated |= created;
      if (checkpoint.checkpointId() > highest) {
        highest = checkpoint.checkpointId();
        highestPartition = outcome.partitionId();
      }
      results.add(
          new PartitionCheckpointResult(
              outcome.partitionId(),
              created,
              checkpoint.checkpointId(),
              record.metadata().intent() == CheckpointIntent.CREATED
                  ? checkpoint.checkpointPosition()
                  : 0));
    }
    if (highest > backupId) {
      throw new GatewayException(
          GatewayErrorCode.ALREADY_EXISTS,
          "Expected backupId higher than every existing backup id, but "
              + backupId
              + " is not higher than "
              + highest
              + " (partition "
              + highestPartition
              + " is at checkpoint "
              + highest
              + "). Take a backup with an id > "
              + highest);
    }
    if (!failures.isEmpty()) {
      throw GatewayException.unavailable(
          "Expected every partition to take checkpoint "
              + backupId
              + ", but "
              + String.join("; ", failures)
              + ". Sending TakeBackup with the same id again is safe");
    }
    if (!anyCreated) {
      throw new GatewayException(
          GatewayErrorCode.ALREADY_EXISTS,
          "Expected backupId higher than every existing backup id, but backup "
              + backupId
              + " exists already (every partition is at checkpoint "
              + highest
              + "). Take a backup with an id > "
              + highest);
    }
    return new TakeBackupResult(backupId, results);
  }

  /** The cluster status of backup {@code backupId}. See the class comment. */
  public CompletableFuture<ClusterBackupStatus> get(long backupId, Deadline deadline) {
    String context = "GetBackup " + backupId;
    ClusterTopology topology;
    try {
      checkBackupId(backupId, "GetBackup");
      topology = requireAllLeaders(context);
    } catch (GatewayException e) {
      return CompletableFuture.failedFuture(e);
    }
    return query(topology, BackupRequest.status(backupId), deadline, context)
        .thenApply(
            routed -> {
              List<BackupStatus> statuses =
                  toStatuses(
                      routed.body().entries(), topology.partitionCount(), routed.nodeId(), context);
              for (BackupStatus status : statuses) {
                if (status.id().checkpointId() != backupId) {
                  throw new GatewayException(
                      GatewayErrorCode.INTERNAL,
                      "Expected statuses of backup "
                          + backupId
                          + " from broker "
                          + routed.nodeId()
                          + ", but got one of "
                          + status.id());
                }
              }
              ClusterBackupStatus status =
                  BackupStatusAggregator.aggregate(backupId, topology.partitionCount(), statuses);
              if (status.statusCode() == ClusterBackupStatusCode.DOES_NOT_EXIST) {
                throw new GatewayException(
                    GatewayErrorCode.NOT_FOUND,
                    "Expected backup "
                        + backupId
                        + " to exist, but no partition has it"
                        + " (GetBackup). List the backups to see which ids exist");
              }
              return status;
            });
  }

  /**
   * One page of backups, newest first.
   *
   * @param pageSize 1..{@value #MAX_PAGE_SIZE}, or 0 for {@value #DEFAULT_PAGE_SIZE}
   * @param pageToken empty for the first page, else a previous page's next token
   */
  public CompletableFuture<BackupListing> list(int pageSize, String pageToken, Deadline deadline) {
    String context = "ListBackups";
    ClusterTopology topology;
    long before;
    try {
      if (pageSize < 0 || pageSize > MAX_PAGE_SIZE) {
        throw GatewayException.invalid(
            "Expected pageSize in [0, "
                + MAX_PAGE_SIZE
                + "] (0 = "
                + DEFAULT_PAGE_SIZE
                + "), but was "
                + pageSize
                + " (ListBackups)");
      }
      if (!pageToken.isEmpty() && !PAGE_TOKEN.matcher(pageToken).matches()) {
        throw GatewayException.invalid(
            "Expected pageToken to be empty or the nextPageToken of a previous page, but was '"
                + shorten(pageToken)
                + "' (ListBackups)");
      }
      before = pageToken.isEmpty() ? Long.MAX_VALUE : Long.parseLong(pageToken);
      topology = requireAllLeaders(context);
    } catch (GatewayException e) {
      return CompletableFuture.failedFuture(e);
    }
    int size = pageSize == 0 ? DEFAULT_PAGE_SIZE : pageSize;
    return collect(topology, "", new ArrayList<>(), 0, deadline, context)
        .thenApply(
            statuses -> {
              Map<Long, List<BackupStatus>> byId = new TreeMap<>(Comparator.reverseOrder());
              for (BackupStatus status : statuses) {
                if (status.id().checkpointId() < before) {
                  byId.computeIfAbsent(status.id().checkpointId(), id -> new ArrayList<>())
                      .add(status);
                }
              }
              List<ClusterBackupStatus> page = new ArrayList<>(size);
              for (Map.Entry<Long, List<BackupStatus>> entry : byId.entrySet()) {
                if (page.size() == size) {
                  break;
                }
                page.add(
                    BackupStatusAggregator.aggregate(
                        entry.getKey(), topology.partitionCount(), entry.getValue()));
              }
              boolean more = byId.size() > page.size();
              String next = more ? Long.toString(page.get(page.size() - 1).checkpointId()) : "";
              return new BackupListing(page, next);
            });
  }

  private CompletableFuture<List<BackupStatus>> collect(
      ClusterTopology topology,
      String token,
      List<BackupStatus> collected,
      int pages,
      Deadline deadline,
      String context) {
    if (pages == LIST_PAGES_MAX) {
      return CompletableFuture.failedFuture(
          new GatewayException(
              GatewayErrorCode.RESOURCE_EXHAUSTED,
              "Expected at most "
                  + LIST_PAGES_MAX * LIST_PAGE_SIZE
                  + " partition backups in the store, but there are more (ListBackups)."
                  + " Delete old backups"));
    }
    return query(topology, BackupRequest.list("*", token, LIST_PAGE_SIZE), deadline, context)
        .thenCompose(
            routed -> {
              collected.addAll(
                  toStatuses(
                      routed.body().entries(),
                      topology.partitionCount(),
                      routed.nodeId(),
                      context));
              String next = routed.body().nextPageToken();
              return next.isEmpty()
                  ? CompletableFuture.completedFuture(collected)
                  : collect(topology, next, collected, pages + 1, deadline, context);
            });
  }

  /** Deletes every partition's backup {@code backupId}. See the class comment. */
  public CompletableFuture<Void> delete(long backupId, Deadline deadline) {
    String context = "DeleteBackup " + backupId;
    ClusterTopology topology;
    try {
      checkBackupId(backupId, "DeleteBackup");
      topology = requireAllLeaders(context);
    } catch (GatewayException e) {
      return CompletableFuture.failedFuture(e);
    }
    return query(topology, BackupRequest.delete(backupId), deadline, context)
        .thenApply(routed -> null);
  }

  private CompletableFuture<Routed<BackupEntries>> query(
      ClusterTopology topology, BackupRequest request, Deadline deadline, String context) {
    List<Integer> candidates = new ArrayList<>();
    topology.leaders().values().stream().map(PartitionLeader::nodeId).forEach(candidates::add);
    candidates.addAll(topology.reachableBrokers());
    candidates.addAll(topology.brokers().keySet());
    return requester
        .toAnyBroker(
            candidates,
            ApiDescriptor.TYPE_BACKUP,
            BackupCodec.encodeRequest(request),
            BackupCodec::decodeResponse,
            deadline,
            context)
        .thenApply(
            routed -> {
              ApiResponse<BackupEntries> answer = routed.body();
              if (answer instanceof ApiResponse.Ok<BackupEntries> ok) {
                return new Routed<>(0, routed.nodeId(), ok.body());
              }
              throw Failures.fromBroker(
                  (ApiResponse.Failure<BackupEntries>) answer, routed.nodeId(), context);
            });
  }

  private static List<BackupStatus> toStatuses(
      List<BackupStatusEntry> entries, int partitionCount, int nodeId, String context) {
    List<BackupStatus> statuses = new ArrayList<>(entries.size());
    for (BackupStatusEntry entry : entries) {
      // Backups of partitions above the partition count (an older, larger cluster) do not count.
      if (entry.partitionId() > partitionCount) {
        continue;
      }
      try {
        statuses.add(BackupStatusMapping.toStatus(entry));
      } catch (IllegalArgumentException e) {
        throw new GatewayException(
            GatewayErrorCode.INTERNAL,
            "Expected a valid backup status from broker "
                + nodeId
                + " ("
                + context
                + "), but "
                + e.getMessage(),
            e);
      }
    }
    return statuses;
  }

  private ClusterTopology requireAllLeaders(String context) {
    ClusterTopology topology = requester.topology().current();
    if (!topology.hasAllLeaders()) {
      throw GatewayException.unavailable(
          "Expected a known leader for every partition ("
              + context
              + "), but "
              + (topology.partitionCount() == 0
                  ? "no broker has answered yet"
                  : "partitions " + topology.partitionsWithoutLeader() + " have none")
              + ". Retry when the cluster is ready (GET /ready)");
    }
    return topology;
  }

  static void checkBackupId(long backupId, String operation) {
    if (backupId < 1) {
      throw GatewayException.invalid(
          "Expected backupId >= 1, but was " + backupId + " (" + operation + ")");
    }
  }

  private static String shorten(String value) {
    return value.length() <= 64 ? value : value.substring(0, 64) + "...";
  }
}
