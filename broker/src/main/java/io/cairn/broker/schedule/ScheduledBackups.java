package io.cairn.broker.schedule;

import io.cairn.backup.BackupService;
import io.cairn.backup.retention.Retention;
import io.cairn.backup.retention.RetentionPolicy;
import io.cairn.backup.schedule.BackupSchedule;
import io.cairn.backup.schedule.BackupScheduleMetrics;
import io.cairn.backup.schedule.BackupScheduler;
import io.cairn.backup.schedule.MarkerRuns;
import io.cairn.backup.schedule.MarkerSchedule;
import io.cairn.backupapi.BackupStore;
import io.cairn.backups3.S3BackupStoreConfig;
import io.cairn.broker.BrokerInfo;
import io.cairn.broker.HostedPartition;
import io.cairn.broker.HostedPartitions;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.topology.LeaderDirectory;
import io.cairn.transport.MessagingService;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Builds a broker's {@link BackupScheduler}, when {@code backup.schedule.interval} is set, with its
 * {@link Retention} when {@code backup.retention.*} is and its markers when {@code
 * backup.schedule.markerInterval} is.
 */
public final class ScheduledBackups {

  private ScheduledBackups() {}

  /**
   * How long after its recorded write time an object of the S3 store may stay locked; zero for any
   * other store or without a lock.
   */
  private static Duration lockHold(BrokerConfig.Backup backup) {
    return backup.s3().flatMap(S3BackupStoreConfig::objectLockHold).orElse(Duration.ZERO);
  }

  /**
   * @param backup the broker's backup settings: schedule, markers, retention (run after each
   *     scheduled backup, over {@code store})
   * @param partitions the broker's partitions, read when the scheduler looks at leadership
   * @param localCommands the broker's {@code cairn-command} handler
   * @return the scheduler, not started; empty without a schedule
   */
  public static Optional<BackupScheduler> scheduler(
      BrokerConfig.Backup backup,
      Optional<BackupStore> store,
      BrokerInfo broker,
      Supplier<HostedPartitions> partitions,
      LeaderDirectory leaders,
      MessagingService messaging,
      MessagingService.RequestHandler localCommands,
      Duration requestTimeout,
      MeterRegistry registry) {
    Optional<BackupSchedule> schedule = backup.schedule();
    Optional<MarkerSchedule> markers = backup.markers();
    Optional<RetentionPolicy> retention = backup.retention();
    if (schedule.isEmpty()) {
      return Optional.empty();
    }
    ClusterCheckpoints checkpoints =
        new ClusterCheckpoints(
            broker.nodeId(),
            broker.partitionCount(),
            leaders,
            messaging,
            localCommands,
            requestTimeout);
    Optional<Retention> pass =
        retention.flatMap(
            policy ->
                store.map(
                    backups ->
                        new Retention(
                            policy,
                            backups,
                            broker.partitionCount(),
                            checkpoints::deleteBackup,
                            lockHold(backup))));
    BackupScheduleMetrics metrics = new BackupScheduleMetrics(registry);
    return Optional.of(
        new BackupScheduler(
            schedule.get(),
            () -> partitions.get().get(1).map(HostedPartition::isLeader).orElse(false),
            checkpoints,
            BackupScheduler.BACKOFF,
            metrics,
            pass,
            store.map(backups -> new BackupService(backups, broker.partitionCount())::status),
            markers.map(m -> new MarkerRuns(m, checkpoints::mark, metrics))));
  }
}
