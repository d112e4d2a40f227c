package io.cairn.broker.api;

import io.cairn.backup.retention.RetentionRun;
import io.cairn.backup.schedule.BackupScheduler;
import io.cairn.backup.schedule.ScheduleStatus;
import io.cairn.broker.topology.LeaderDirectory;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.BackupScheduleCodec;
import io.cairn.protocol.api.BackupScheduleState;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.transport.MessagingService;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * {@code cairn-backup-schedule}: the backup schedule's state from the broker running it, the leader
 * of partition 1. Another broker answers {@code NOT_LEADER} with the leader it knows of; a broker
 * without {@code backup.schedule.interval} answers {@code CONFLICT}.
 */
public final class BackupScheduleHandler implements MessagingService.RequestHandler {

  static final String OPERATION = "backup-schedule";

  private final int nodeId;
  private final Optional<BackupScheduler> scheduler;
  private final LeaderDirectory leaders;
  private final BrokerApiMetrics metrics;

  /**
   * @param scheduler this broker's scheduler; empty when no schedule is configured
   */
  public BackupScheduleHandler(
      int nodeId,
      Optional<BackupScheduler> scheduler,
      LeaderDirectory leaders,
      BrokerApiMetrics metrics) {
    this.nodeId = nodeId;
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.leaders = Objects.requireNonNull(leaders, "leaders");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public CompletableFuture<byte[]> handle(int senderNodeId, byte[] payload) {
    return metrics.counted(OPERATION, answer(payload), BackupScheduleCodec::encodeResponse);
  }

  private CompletableFuture<ApiResponse<BackupScheduleState>> answer(byte[] payload) {
    try {
      BackupScheduleCodec.decodeRequest(payload);
    } catch (ProtocolException e) {
      return CompletableFuture.completedFuture(
          ApiResponse.failure(ResponseStatus.INVALID, e.getMessage()));
    }
    if (scheduler.isEmpty()) {
      return CompletableFuture.completedFuture(
          ApiResponse.failure(
              ResponseStatus.CONFLICT,
              "Expected backup.schedule.interval or backup.schedule.cron to be set on node "
                  + nodeId
                  + ", but neither is: backups are taken by hand only"));
    }
    return scheduler
        .get()
        .status()
        .thenApply(
            status ->
                status
                    .map(this::state)
                    .map(ApiResponse::ok)
                    .orElseGet(
                        () ->
                            ApiResponse.notLeader(
                                leaders.leaderOf(1),
                                "Expected the leader of partition 1, which runs the backup"
                                    + " schedule, but node "
                                    + nodeId
                                    + " does not lead it")));
  }

  private BackupScheduleState state(ScheduleStatus status) {
    return new BackupScheduleState(
        nodeId,
        status.interval().toMillis(),
        status.nextRunMillis(),
        status.nextBackupId(),
        status
            .lastRun()
            .map(
                run ->
                    new BackupScheduleState.LastRun(
                        run.backupId(),
                        run.startedMillis(),
                        run.finishedMillis(),
                        run.outcome().kind().label(),
                        run.attempt(),
                        run.outcome().detail())),
        status.consecutiveFailures(),
        status
            .retention()
            .map(
                policy ->
                    new BackupScheduleState.Retention(
                        policy.maxCount().orElse(0),
                        policy.maxAge().map(Duration::toMillis).orElse(0L),
                        policy.minCount(),
                        status.lastRetention().map(BackupScheduleHandler::pass))),
        status.markers().map(BackupScheduleHandler::markers),
        status.cron());
  }

  private static BackupScheduleState.Markers markers(ScheduleStatus.MarkerStatus markers) {
    return new BackupScheduleState.Markers(
        markers.interval().toMillis(),
        markers
            .lastMarker()
            .map(
                run ->
                    new BackupScheduleState.LastMarker(
                        run.markerId(),
                        run.finishedMillis(),
                        run.outcome().kind().label(),
                        run.outcome().detail())),
        markers.failuresInARow());
  }

  private static BackupScheduleState.RetentionPass pass(RetentionRun run) {
    List<Long> ids = run.requested();
    int from = Math.max(0, ids.size() - BackupScheduleState.DELETED_IDS_MAX);
    List<BackupScheduleState.LockedBackup> locked =
        run.locked().stream()
            .limit(BackupScheduleState.DELETED_IDS_MAX)
            .map(l -> new BackupScheduleState.LockedBackup(l.backupId(), l.untilMillis()))
            .toList();
    return new BackupScheduleState.RetentionPass(
        run.finishedMillis(), run.kept(), ids.subList(from, ids.size()), run.failure(), locked);
  }
}
