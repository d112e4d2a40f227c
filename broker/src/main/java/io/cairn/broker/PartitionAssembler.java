package io.cairn.broker;

import io.cairn.backupapi.BackupStore;
import io.cairn.broker.api.CommandResponseRouter;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.exporting.ExporterComponent;
import io.cairn.broker.exporting.ExporterDirectorConfig;
import io.cairn.broker.exporting.ExportingState;
import io.cairn.broker.interpartition.TransportInterPartitionSender;
import io.cairn.broker.partition.BackupComponent;
import io.cairn.broker.partition.LedgerComponent;
import io.cairn.broker.partition.LogArchiveComponent;
import io.cairn.broker.partition.Partition;
import io.cairn.broker.partition.PartitionComponent;
import io.cairn.broker.partition.PartitionLayout;
import io.cairn.engine.InterPartitionReceiver;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the partitions a broker hosts ({@link PartitionDistribution}): each one's components
 * (backups, ledger, the log archive with a store, exporters), its layout in the data directory and
 * its raft member's settings. Used once per broker start.
 */
final class PartitionAssembler {

  // the broker's logger: these lines are the broker's
  private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

  private final NodeProcessing.Parts parts;
  private final ExportingState exporting;
  private final CommandResponseRouter router;

  PartitionAssembler(
      NodeProcessing.Parts parts, ExportingState exporting, CommandResponseRouter router) {
    this.parts = parts;
    this.exporting = exporting;
    this.router = router;
  }

  /**
   * Opens every partition of this node (not started yet); on failure closes those already opened.
   */
  List<HostedPartition> open(TransportInterPartitionSender sender, Optional<BackupStore> store) {
    BrokerConfig config = parts.config();
    BrokerInfo info = parts.info();
    int nodeId = info.nodeId();
    NodeProcessing.Executors executors = parts.executors();
    PartitionDistribution distribution = config.distribution();
    List<HostedPartition> opened = new ArrayList<>();
    try {
      for (int partitionId : distribution.partitionsOf(nodeId)) {
        BackupComponent backups =
            new BackupComponent(
                store,
                config.backupConfig(),
                distribution.partitionCount(),
                executors.upload(),
                parts.safeguards().backupSnapshots());
        LedgerComponent ledger =
            new LedgerComponent(
                config.ledgerConfig(), sender, parts.safeguards().checkpointStamps());
        List<PartitionComponent> components = new ArrayList<>(List.of(backups, ledger));
        store
            .flatMap(
                s ->
                    LogArchiveComponent.of(
                        s, config.backup(), parts.safeguards().backupSnapshots()))
            .ifPresent(components::add);
        // also without exporters, so that their column family always exists in the state
        ExporterComponent exporters =
            new ExporterComponent(
                config.exporters(),
                exporting,
                ExporterDirectorConfig.defaults(),
                parts.exporterScheduler().orElse(null));
        components.add(exporters);
        // election timeouts only need to differ between members; the seed is not a secret
        long seed = parts.clock().nanos() ^ ((long) nodeId << 32) ^ partitionId;
        Partition partition =
            Partition.builder()
                .partitionId(partitionId)
                .nodeId(nodeId)
                .members(distribution.members(partitionId))
                // the first member: partitions start at consecutive brokers, so leaders spread
                .preferredLeader(
                    config.raft().leaderBalancing()
                        ? distribution.preferredLeader(partitionId)
                        : -1)
                .layout(PartitionLayout.of(parts.dataDirectory(), partitionId))
                .config(config.partitionConfig())
                .messagingService(parts.transport())
                .scheduler(parts.scheduler())
                .ioExecutor(executors.io())
                .flushExecutor(executors.flush())
                .journalFiles(parts.journalFiles())
                .random(new SplittableRandom(seed))
                .components(components)
                .exportedPositions(config.exporters().isEmpty() ? null : exporters)
                .responseWriter(router.writerFor(partitionId))
                .meterRegistry(parts.registry())
                .brokerVersion(info.version())
                .open();
        LOG.debug("Opened partition {} on node {} (election seed {})", partitionId, nodeId, seed);
        opened.add(
            new HostedPartition(
                partition,
                ledger,
                backups,
                new InterPartitionReceiver(partitionId, partition.logStream().writer())));
      }
      return opened;
    } catch (RuntimeException e) {
      for (HostedPartition partition : opened) {
        partition.partition().closeAsync();
      }
      throw e;
    }
  }
}
