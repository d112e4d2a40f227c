package io.cairn.broker.schedule;

import io.cairn.backup.schedule.BackupSchedule;
import io.cairn.backup.schedule.BackupScheduleMetrics;
import io.cairn.backup.schedule.BackupScheduler;
import io.cairn.broker.BrokerInfo;
import io.cairn.broker.HostedPartition;
import io.cairn.broker.HostedPartitions;
import io.cairn.broker.topology.LeaderDirectory;
import io.cairn.transport.MessagingService;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** Builds a broker's {@link BackupScheduler}, when {@code backup.schedule.interval} is set. */
public final class ScheduledBackups {

  private ScheduledBackups() {}

  /**
   * @param partitions the broker's partitions, read when the scheduler looks at leadership
   * @param localCommands the broker's {@code cairn-command} handler
   * @return the scheduler, not started; empty without a schedule
   */
  public static Optional<BackupScheduler> scheduler(
      Optional<BackupSchedule> schedule,
      BrokerInfo broker,
      Supplier<HostedPartitions> partitions,
      LeaderDirectory leaders,
      MessagingService messaging,
      MessagingService.RequestHandler localCommands,
      Duration requestTimeout,
      MeterRegistry registry) {
    return schedule.map(
        interval ->
            new BackupScheduler(
                interval,
                () -> partitions.get().get(1).map(HostedPartition::isLeader).orElse(false),
                new ClusterCheckpoints(
                    broker.nodeId(),
                    broker.partitionCount(),
                    leaders,
                    messaging,
                    localCommands,
                    requestTimeout),
                BackupScheduler.BACKOFF,
                new BackupScheduleMetrics(registry)));
  }
}
