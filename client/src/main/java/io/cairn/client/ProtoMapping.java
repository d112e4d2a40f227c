package io.cairn.client;

import com.google.protobuf.Timestamp;
import io.cairn.gateway.v1.Backup;
import io.cairn.gateway.v1.CreateAccountResponse;
import io.cairn.gateway.v1.DepositResponse;
import io.cairn.gateway.v1.ExportingResponse;
import io.cairn.gateway.v1.GetAccountResponse;
import io.cairn.gateway.v1.Health;
import io.cairn.gateway.v1.ListBackupsResponse;
import io.cairn.gateway.v1.PartitionBackup;
import io.cairn.gateway.v1.ReplicaRole;
import io.cairn.gateway.v1.TakeBackupResponse;
import io.cairn.gateway.v1.TransferResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Generated gRPC messages → the client's records. */
final class ProtoMapping {
  private ProtoMapping() {}

  static AccountCreated accountCreated(CreateAccountResponse r) {
    return new AccountCreated(r.getAccountId(), r.getPartitionId(), r.getPosition());
  }

  static Deposited deposited(DepositResponse r) {
    return new Deposited(r.getAccountId(), r.getAmount(), r.getPartitionId(), r.getPosition());
  }

  static TransferAccepted transferAccepted(TransferResponse r) {
    return new TransferAccepted(
        r.getTransferKey(),
        r.getSourcePartitionId(),
        r.getTargetPartitionId(),
        r.getCompleted(),
        r.getPosition());
  }

  static Account account(GetAccountResponse r) {
    return new Account(r.getAccountId(), r.getBalance(), r.getPartitionId());
  }

  static BackupTaken backupTaken(TakeBackupResponse r) {
    return new BackupTaken(
        r.getBackupId(),
        r.getPartitionsList().stream()
            .map(
                p ->
                    new PartitionCheckpoint(
                        p.getPartitionId(),
                        p.getCreated(),
                        p.getCheckpointId(),
                        p.getCheckpointPosition()))
            .toList());
  }

  static BackupInfo backup(Backup b) {
    return new BackupInfo(
        b.getBackupId(),
        state(b.getState()),
        b.getFailureReason(),
        b.getPartitionsList().stream().map(ProtoMapping::partitionBackup).toList());
  }

  static BackupPage backupPage(ListBackupsResponse r) {
    return new BackupPage(
        r.getBackupsList().stream().map(ProtoMapping::backup).toList(), r.getNextPageToken());
  }

  static BackupSchedule backupSchedule(io.cairn.gateway.v1.BackupSchedule s) {
    BackupSchedule.ScheduledRun lastRun = null;
    if (s.hasLastRun()) {
      io.cairn.gateway.v1.ScheduledRun run = s.getLastRun();
      lastRun =
          new BackupSchedule.ScheduledRun(
              run.getBackupId(),
              instant(run.getStartedAt()),
              instant(run.getFinishedAt()),
              run.getOutcome(),
              run.getAttempt(),
              run.getDetail(),
              state(run.getBackupState()));
    }
    return new BackupSchedule(
        s.getNodeId(),
        Duration.ofSeconds(s.getInterval().getSeconds(), s.getInterval().getNanos()),
        instant(s.getNextRunAt()),
        s.getNextBackupId(),
        lastRun,
        s.getConsecutiveFailures(),
        s.hasRetention() ? retention(s.getRetention()) : null,
        s.hasMarkers() ? markers(s.getMarkers()) : null,
        s.getCron());
  }

  private static BackupSchedule.Markers markers(io.cairn.gateway.v1.MarkerSchedule m) {
    BackupSchedule.MarkerRun last = null;
    if (m.hasLastMarker()) {
      io.cairn.gateway.v1.MarkerRun run = m.getLastMarker();
      last =
          new BackupSchedule.MarkerRun(
              run.getMarkerId(), instant(run.getFinishedAt()), run.getOutcome(), run.getDetail());
    }
    return new BackupSchedule.Markers(
        Duration.ofSeconds(m.getInterval().getSeconds(), m.getInterval().getNanos()),
        last,
        m.getFailuresInARow());
  }

  private static BackupSchedule.Retention retention(io.cairn.gateway.v1.BackupRetention r) {
    BackupSchedule.RetentionPass pass = null;
    if (r.hasLastPass()) {
      io.cairn.gateway.v1.RetentionPass p = r.getLastPass();
      pass =
          new BackupSchedule.RetentionPass(
              instant(p.getFinishedAt()),
              p.getKept(),
              p.getDeletedBackupIdsList(),
              p.getFailure(),
              p.getLockedBackupsList().stream()
                  .map(
                      l ->
                          new BackupSchedule.LockedBackup(
                              l.getBackupId(), instant(l.getLockedUntil())))
                  .toList());
    }
    return new BackupSchedule.Retention(
        r.getMaxCount(),
        r.hasMaxAge()
            ? Duration.ofSeconds(r.getMaxAge().getSeconds(), r.getMaxAge().getNanos())
            : null,
        r.getMinCount(),
        pass);
  }

  static List<RestorePoint> restorePoints(io.cairn.gateway.v1.ListRestorePointsResponse r) {
    return r.getRestorePointsList().stream()
        .map(
            p ->
                new RestorePoint(
                    p.getCheckpointId(), instant(p.getTakenAt()), p.getRestorable(), p.getDetail()))
        .toList();
  }

  static RestoreStatus restoreStatus(io.cairn.gateway.v1.RestoreStatus r) {
    return new RestoreStatus(
        r.getState(),
        r.getSelection(),
        r.getBackupId(),
        r.getRestorePointId(),
        r.getBrokersList().stream()
            .map(b -> new RestoreStatus.Broker(b.getNodeId(), b.getPhase(), b.getDetail()))
            .toList(),
        r.getPartitionsList().stream()
            .map(
                p ->
                    new RestoreStatus.Partition(
                        p.getPartitionId(),
                        p.getNodeId(),
                        p.getPhase(),
                        p.getBytesDone(),
                        p.getBytesTotal(),
                        p.getBytesPerSecond(),
                        p.hasEta()
                            ? Duration.ofSeconds(p.getEta().getSeconds(), p.getEta().getNanos())
                            : null,
                        p.getDetail()))
            .toList());
  }

  static ExportingState exporting(ExportingResponse r) {
    return new ExportingState(r.getPaused(), r.getNodeIdsList());
  }

  static Topology topology(io.cairn.gateway.v1.Topology t) {
    List<Topology.Broker> brokers =
        t.getBrokersList().stream()
            .map(
                b ->
                    new Topology.Broker(
                        b.getNodeId(),
                        b.getAddress(),
                        b.getReachable(),
                        b.getError(),
                        b.getVersion(),
                        b.getReplicasList().stream()
                            .map(
                                r ->
                                    new Topology.Replica(
                                        r.getPartitionId(),
                                        role(r.getRole()),
                                        r.getTerm(),
                                        health(r.getHealth()),
                                        r.getHealthReason()))
                            .toList()))
            .toList();
    List<Topology.Partition> partitions =
        t.getPartitionsList().stream()
            .map(
                p ->
                    new Topology.Partition(
                        p.getPartitionId(),
                        p.getLeaderNodeId(),
                        p.getTerm(),
                        health(p.getHealth())))
            .toList();
    return new Topology(
        t.getClusterId(),
        t.getPartitionCount(),
        t.getReplicationFactor(),
        brokers,
        partitions,
        Instant.ofEpochMilli(t.getRefreshedAtMs()));
  }

  private static PartitionBackupInfo partitionBackup(PartitionBackup p) {
    return new PartitionBackupInfo(
        p.getPartitionId(),
        state(p.getState()),
        p.getFailureReason(),
        p.getCheckpointPosition(),
        p.getSnapshotId(),
        p.getNodeId(),
        p.getBrokerVersion(),
        p.hasCreatedAt() ? instant(p.getCreatedAt()) : null,
        p.hasLastUpdatedAt() ? instant(p.getLastUpdatedAt()) : null,
        p.getSizeBytes(),
        p.getFileCount(),
        p.getStateDigest());
  }

  private static Instant instant(Timestamp t) {
    return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
  }

  static BackupState state(io.cairn.gateway.v1.BackupState state) {
    return switch (state) {
      case BACKUP_STATE_DOES_NOT_EXIST -> BackupState.DOES_NOT_EXIST;
      case BACKUP_STATE_IN_PROGRESS -> BackupState.IN_PROGRESS;
      case BACKUP_STATE_COMPLETED -> BackupState.COMPLETED;
      case BACKUP_STATE_FAILED -> BackupState.FAILED;
      case BACKUP_STATE_INCOMPLETE -> BackupState.INCOMPLETE;
      default -> BackupState.UNKNOWN;
    };
  }

  static Topology.ReplicaRole role(ReplicaRole role) {
    return switch (role) {
      case REPLICA_ROLE_INACTIVE -> Topology.ReplicaRole.INACTIVE;
      case REPLICA_ROLE_FOLLOWER -> Topology.ReplicaRole.FOLLOWER;
      case REPLICA_ROLE_LEADER -> Topology.ReplicaRole.LEADER;
      case REPLICA_ROLE_FAILED -> Topology.ReplicaRole.FAILED;
      case REPLICA_ROLE_CLOSED -> Topology.ReplicaRole.CLOSED;
      default -> Topology.ReplicaRole.UNKNOWN;
    };
  }

  static Topology.Health health(Health health) {
    return switch (health) {
      case HEALTH_HEALTHY -> Topology.Health.HEALTHY;
      case HEALTH_UNHEALTHY -> Topology.Health.UNHEALTHY;
      case HEALTH_FAILED -> Topology.Health.FAILED;
      case HEALTH_UNREACHABLE -> Topology.Health.UNREACHABLE;
      default -> Topology.Health.UNKNOWN;
    };
  }
}
