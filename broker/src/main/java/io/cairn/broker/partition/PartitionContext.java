package io.cairn.broker.partition;

import io.cairn.journal.Journal;
import io.cairn.logstreams.LogStream;
import io.cairn.scheduler.ActorScheduler;
import io.cairn.scheduler.Clock;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.transport.MessagingService;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * What a {@link PartitionComponent} may use for the whole life of its partition on this broker.
 *
 * @param partitionId the partition
 * @param nodeId this broker
 * @param members the brokers that host the partition (its raft group), this one included
 * @param layout where the partition keeps its files on this broker (components read their own files
 *     there, such as a restore's {@code restored-backup.json})
 * @param logStream the partition's log: its {@link LogStream#writer()} serves any leader term (for
 *     example an inter-partition receiver); processing uses {@link ProcessingScope#logStream()}
 * @param journal the raft journal; <b>read only</b> (a backup copies its {@link
 *     Journal#segmentFiles()})
 * @param snapshotStore the partition's snapshots (reservations and compaction holds for backups)
 * @param messagingService the broker's messaging (components register handlers of their own types,
 *     named with the partition id, and remove them when they close)
 * @param scheduler where components start their own actors
 * @param clock the scheduler's clock (never used for processing)
 * @param ioExecutor a bounded executor for blocking work (file and network I/O)
 * @param meterRegistry where components register meters (tag them with {@code partition})
 * @param brokerVersion the version of this broker, as recorded in snapshots and backups
 */
public record PartitionContext(
    int partitionId,
    int nodeId,
    List<Integer> members,
    PartitionLayout layout,
    LogStream logStream,
    Journal journal,
    SnapshotStore snapshotStore,
    MessagingService messagingService,
    ActorScheduler scheduler,
    Clock clock,
    Executor ioExecutor,
    MeterRegistry meterRegistry,
    String brokerVersion) {

  public PartitionContext {
    members = List.copyOf(members);
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(logStream, "logStream");
    Objects.requireNonNull(journal, "journal");
    Objects.requireNonNull(snapshotStore, "snapshotStore");
    Objects.requireNonNull(messagingService, "messagingService");
    Objects.requireNonNull(scheduler, "scheduler");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(ioExecutor, "ioExecutor");
    Objects.requireNonNull(meterRegistry, "meterRegistry");
    Objects.requireNonNull(brokerVersion, "brokerVersion");
  }
}
