package io.cairn.gateway.grpc;

import com.google.protobuf.Timestamp;
import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.ClusterBackupStatus;
import io.cairn.gateway.admin.BackupAdmin;
import io.cairn.gateway.admin.ExportingAdmin;
import io.cairn.gateway.admin.ExportingResult;
import io.cairn.gateway.admin.PartitionCheckpointResult;
import io.cairn.gateway.admin.RestoreAdmin;
import io.cairn.gateway.admin.ScheduleView;
import io.cairn.gateway.routing.Deadline;
import io.cairn.gateway.topology.BrokerStatus;
import io.cairn.gateway.topology.ClusterTopology;
import io.cairn.gateway.topology.PartitionLeader;
import io.cairn.gateway.topology.TopologyManager;
import io.cairn.gateway.v1.AdminServiceGrpc;
import io.cairn.gateway.v1.Backup;
import io.cairn.gateway.v1.BackupRetention;
import io.cairn.gateway.v1.BackupSchedule;
import io.cairn.gateway.v1.BackupState;
import io.cairn.gateway.v1.Broker;
import io.cairn.gateway.v1.DeleteBackupRequest;
import io.cairn.gateway.v1.DeleteBackupResponse;
import io.cairn.gateway.v1.ExportingResponse;
import io.cairn.gateway.v1.GetBackupRequest;
import io.cairn.gateway.v1.GetBackupScheduleRequest;
import io.cairn.gateway.v1.GetRestoreStatusRequest;
import io.cairn.gateway.v1.GetTopologyRequest;
import io.cairn.gateway.v1.Health;
import io.cairn.gateway.v1.ListBackupsRequest;
import io.cairn.gateway.v1.ListBackupsResponse;
import io.cairn.gateway.v1.ListRestorePointsRequest;
import io.cairn.gateway.v1.ListRestorePointsResponse;
import io.cairn.gateway.v1.MarkerRun;
import io.cairn.gateway.v1.MarkerSchedule;
import io.cairn.gateway.v1.Partition;
import io.cairn.gateway.v1.PartitionBackup;
import io.cairn.gateway.v1.PartitionCheckpoint;
import io.cairn.gateway.v1.PauseExportingRequest;
import io.cairn.gateway.v1.Replica;
import io.cairn.gateway.v1.ReplicaRole;
import io.cairn.gateway.v1.RestorePoint;
import io.cairn.gateway.v1.RestoreStatus;
import io.cairn.gateway.v1.ResumeExportingRequest;
import io.cairn.gateway.v1.RetentionPass;
import io.cairn.gateway.v1.ScheduledRun;
import io.cairn.gateway.v1.TakeBackupRequest;
import io.cairn.gateway.v1.TakeBackupResponse;
import io.cairn.gateway.v1.Topology;
import io.cairn.protocol.api.BackupScheduleState;
import io.cairn.protocol.api.BrokerTopology;
import io.cairn.protocol.api.PartitionReplica;
import io.cairn.protocol.api.ReplicaHealth;
import io.cairn.protocol.api.RestorePointEntry;
import io.grpc.stub.StreamObserver;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/** The {@code cairn.gateway.v1.AdminService}: backups, exporting, topology and restore. */
public final class AdminGrpcService extends AdminServiceGrpc.AdminServiceImplBase {
  private final BackupAdmin backups;
  private final ExportingAdmin exporting;
  private final RestoreAdmin restore;
  private final TopologyManager topology;
  private final GrpcCalls calls;

  AdminGrpcService(
      BackupAdmin backups,
      ExportingAdmin exporting,
      RestoreAdmin restore,
      TopologyManager topology,
      GrpcCalls calls) {
    this.backups = backups;
    this.exporting = exporting;
    this.restore = restore;
    this.topology = topology;
    this.calls = calls;
  }

  @Override
  public void takeBackup(TakeBackupRequest request, StreamObserver<TakeBackupResponse> observer) {
    calls.run(
        "TakeBackup",
        observer,
        deadline -> backups.take(request.getBackupId(), deadline),
        result -> {
          TakeBackupResponse.Builder response =
              TakeBackupResponse.newBuilder().setBackupId(result.backupId());
          for (PartitionCheckpointResult partition : result.partitions()) {
            response.addPartitions(
                PartitionCheckpoint.newBuilder()
                    .setPartitionId(partition.partitionId())
                    .setCreated(partition.created())
                    .setCheckpointId(partition.checkpointId())
                    .setCheckpointPosition(partition.checkpointPosition()));
          }
          return response.build();
        });
  }

  @Override
  public void getBackup(GetBackupRequest request, StreamObserver<Backup> observer) {
    calls.run(
        "GetBackup",
        observer,
        deadline -> backups.get(request.getBackupId(), deadline),
        AdminGrpcService::toBackup);
  }

  @Override
  public void listBackups(
      ListBackupsRequest request, StreamObserver<ListBackupsResponse> observer) {
    calls.run(
        "ListBackups",
        observer,
        deadline -> backups.list(request.getPageSize(), request.getPageToken(), deadline),
        listing -> {
          ListBackupsResponse.Builder response =
              ListBackupsResponse.newBuilder().setNextPageToken(listing.nextPageToken());
          listing.backups().forEach(backup -> response.addBackups(toBackup(backup)));
          return response.build();
        });
  }

  @Override
  public void deleteBackup(
      DeleteBackupRequest request, StreamObserver<DeleteBackupResponse> observer) {
    calls.run(
        "DeleteBackup",
        observer,
        deadline -> backups.delete(request.getBackupId(), deadline),
        ignored -> DeleteBackupResponse.getDefaultInstance());
  }

  @Override
  public void getBackupSchedule(
      GetBackupScheduleRequest request, StreamObserver<BackupSchedule> observer) {
    calls.run("GetBackupSchedule", observer, backups::schedule, AdminGrpcService::toSchedule);
  }

  static BackupSchedule toSchedule(ScheduleView view) {
    BackupScheduleState state = view.state();
    BackupSchedule.Builder schedule =
        BackupSchedule.newBuilder()
            .setNodeId(state.nodeId())
            .setInterval(duration(state.intervalMillis()))
            .setNextRunAt(timestamp(Instant.ofEpochMilli(state.nextRunMillis())))
            .setNextBackupId(state.nextBackupId())
            .setConsecutiveFailures(state.consecutiveFailures())
            .setCron(state.cron());
    state
        .lastRun()
        .ifPresent(
            run ->
                schedule.setLastRun(
                    ScheduledRun.newBuilder()
                        .setBackupId(run.backupId())
                        .setStartedAt(timestamp(Instant.ofEpochMilli(run.startedMillis())))
                        .setFinishedAt(timestamp(Instant.ofEpochMilli(run.finishedMillis())))
                        .setOutcome(run.outcome())
                        .setAttempt(run.attempt())
                        .setDetail(run.detail())
                        .setBackupState(
                            view.lastBackupState()
                                .map(code -> BackupState.valueOf("BACKUP_STATE_" + code.name()))
                                .orElse(BackupState.BACKUP_STATE_UNSPECIFIED))));
    state
        .retention()
        .ifPresent(
            retention -> {
              BackupRetention.Builder built =
                  BackupRetention.newBuilder()
                      .setMaxCount(retention.maxCount())
                      .setMinCount(retention.minCount());
              if (retention.maxAgeMillis() > 0) {
                built.setMaxAge(duration(retention.maxAgeMillis()));
              }
              retention
                  .lastPass()
                  .ifPresent(
                      pass ->
                          built.setLastPass(
                              RetentionPass.newBuilder()
                                  .setFinishedAt(
                                      timestamp(Instant.ofEpochMilli(pass.finishedMillis())))
                                  .setKept(pass.kept())
                                  .addAllDeletedBackupIds(pass.deletedIds())
                                  .setFailure(pass.failure())
                                  .addAllLockedBackups(
                                      pass.locked().stream()
                                          .map(
                                              l ->
                                                  io.cairn.gateway.v1.LockedBackup.newBuilder()
                                                      .setBackupId(l.backupId())
                                                      .setLockedUntil(
                                                          timestamp(
                                                              Instant.ofEpochMilli(
                                                                  l.untilMillis())))
                                                      .build())
                                          .toList())));
              schedule.setRetention(built);
            });
    state
        .markers()
        .ifPresent(
            markers -> {
              MarkerSchedule.Builder built =
                  MarkerSchedule.newBuilder()
                      .setInterval(duration(markers.intervalMillis()))
                      .setFailuresInARow(markers.failuresInARow());
              markers
                  .lastMarker()
                  .ifPresent(
                      last ->
                          built.setLastMarker(
                              MarkerRun.newBuilder()
                                  .setMarkerId(last.markerId())
                                  .setFinishedAt(
                                      timestamp(Instant.ofEpochMilli(last.finishedMillis())))
                                  .setOutcome(last.outcome())
                                  .setDetail(last.detail())));
              schedule.setMarkers(built);
            });
    return schedule.build();
  }

  private static com.google.protobuf.Duration duration(long millis) {
    return com.google.protobuf.Duration.newBuilder()
        .setSeconds(millis / 1000)
        .setNanos((int) (millis % 1000) * 1_000_000)
        .build();
  }

  @Override
  public void pauseExporting(
      PauseExportingRequest request, StreamObserver<ExportingResponse> observer) {
    calls.run("PauseExporting", observer, exporting::pause, AdminGrpcService::toExporting);
  }

  @Override
  public void resumeExporting(
      ResumeExportingRequest request, StreamObserver<ExportingResponse> observer) {
    calls.run("ResumeExporting", observer, exporting::resume, AdminGrpcService::toExporting);
  }

  @Override
  public void getTopology(GetTopologyRequest request, StreamObserver<Topology> observer) {
    calls.run("GetTopology", observer, this::freshTopology, AdminGrpcService::toTopology);
  }

  @Override
  public void restore(
      io.cairn.gateway.v1.RestoreRequest request, StreamObserver<RestoreStatus> observer) {
    calls.run(
        "Restore",
        observer,
        deadline -> restore.start(RestoreProtos.request(request), deadline),
        RestoreProtos::status);
  }

  @Override
  public void getRestoreStatus(
      GetRestoreStatusRequest request, StreamObserver<RestoreStatus> observer) {
    calls.run("GetRestoreStatus", observer, restore::status, RestoreProtos::status);
  }

  @Override
  public void listRestorePoints(
      ListRestorePointsRequest request, StreamObserver<ListRestorePointsResponse> observer) {
    calls.run(
        "ListRestorePoints",
        observer,
        deadline -> restore.restorePoints(request.getLimit(), deadline),
        points -> {
          ListRestorePointsResponse.Builder response = ListRestorePointsResponse.newBuilder();
          for (RestorePointEntry point : points) {
            response.addRestorePoints(
                RestorePoint.newBuilder()
                    .setCheckpointId(point.checkpointId())
                    .setTakenAt(timestamp(Instant.ofEpochMilli(point.takenAtMillis())))
                    .setRestorable(point.restorable())
                    .setDetail(point.detail()));
          }
          return response.build();
        });
  }

  private CompletableFuture<ClusterTopology> freshTopology(Deadline deadline) {
    return topology.refresh();
  }

  private static ExportingResponse toExporting(ExportingResult result) {
    return ExportingResponse.newBuilder()
        .setPaused(result.paused())
        .addAllNodeIds(result.nodeIds())
        .build();
  }

  static Backup toBackup(ClusterBackupStatus status) {
    Backup.Builder backup =
        Backup.newBuilder()
            .setBackupId(status.checkpointId())
            .setState(BackupState.valueOf("BACKUP_STATE_" + status.statusCode().name()))
            .setFailureReason(status.reason().orElse(""));
    status.partitions().entrySet().stream()
        .sorted(java.util.Map.Entry.comparingByKey())
        .forEach(entry -> backup.addPartitions(toPartition(entry.getValue())));
    return backup.build();
  }

  private static PartitionBackup toPartition(BackupStatus status) {
    PartitionBackup.Builder partition =
        PartitionBackup.newBuilder()
            .setPartitionId(status.id().partitionId())
            .setNodeId(status.id().nodeId())
            .setState(BackupState.valueOf("BACKUP_STATE_" + status.statusCode().name()))
            .setFailureReason(status.failureReason().orElse(""));
    status.createdAt().ifPresent(at -> partition.setCreatedAt(timestamp(at)));
    status.lastUpdatedAt().ifPresent(at -> partition.setLastUpdatedAt(timestamp(at)));
    if (status.descriptor().isPresent()) {
      BackupDescriptor descriptor = status.descriptor().get();
      partition
          .setCheckpointPosition(descriptor.checkpointPosition())
          .setSnapshotId(descriptor.snapshotId().orElse(""))
          .setBrokerVersion(descriptor.brokerVersion())
          .setSizeBytes(descriptor.sizeBytes())
          .setFileCount(descriptor.fileCount())
          .setStateDigest(descriptor.stateDigest());
    }
    return partition.build();
  }

  private static Timestamp timestamp(Instant instant) {
    return Timestamp.newBuilder()
        .setSeconds(instant.getEpochSecond())
        .setNanos(instant.getNano())
        .build();
  }

  static Topology toTopology(ClusterTopology topology) {
    Topology.Builder result =
        Topology.newBuilder()
            .setClusterId(topology.clusterId())
            .setPartitionCount(topology.partitionCount())
            .setReplicationFactor(topology.replicationFactor())
            .setRefreshedAtMs(topology.refreshedAtMs());
    for (BrokerStatus status : topology.brokers().values()) {
      Broker.Builder broker =
          Broker.newBuilder()
              .setNodeId(status.nodeId())
              .setAddress(status.address().toString())
              .setReachable(status.reachable())
              .setError(status.error());
      if (status.topology().isPresent()) {
        BrokerTopology reported = status.topology().get();
        broker.setVersion(reported.brokerVersion());
        for (PartitionReplica replica : reported.replicas()) {
          broker.addReplicas(
              Replica.newBuilder()
                  .setPartitionId(replica.partitionId())
                  .setRole(ReplicaRole.valueOf("REPLICA_ROLE_" + replica.role().name()))
                  .setTerm(replica.term())
                  .setHealth(health(replica.health()))
                  .setHealthReason(replica.healthReason()));
        }
      }
      result.addBrokers(broker);
    }
    for (int partitionId = 1; partitionId <= topology.partitionCount(); partitionId++) {
      PartitionLeader leader = topology.leaders().get(partitionId);
      result.addPartitions(
          leader == null
              ? Partition.newBuilder()
                  .setPartitionId(partitionId)
                  .setLeaderNodeId(-1)
                  .setHealth(Health.HEALTH_UNREACHABLE)
                  .build()
              : Partition.newBuilder()
                  .setPartitionId(partitionId)
                  .setLeaderNodeId(leader.nodeId())
                  .setTerm(leader.term())
                  .setHealth(health(leader.health()))
                  .build());
    }
    return result.build();
  }

  private static Health health(ReplicaHealth health) {
    return Health.valueOf("HEALTH_" + health.name());
  }
}
