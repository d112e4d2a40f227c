package io.cairn.cli.admin;

import io.cairn.cli.ClientCommand;
import io.cairn.cli.ExitCode;
import io.cairn.cli.Formats;
import io.cairn.cli.output.Printer;
import io.cairn.cli.output.Table;
import io.cairn.client.CairnClient;
import io.cairn.client.Topology;
import java.io.PrintStream;
import java.util.Comparator;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;

/**
 * {@code cairn topology}: brokers, partitions, leaders, roles and health as the gateway sees them.
 */
@Command(
    name = "topology",
    description = "Shows the brokers, the partitions, their leaders, roles and health.")
public final class TopologyCommand extends ClientCommand {

  @Override
  protected int run(CairnClient client, Printer printer) {
    Topology topology = client.topology();
    printer.result(topology, out -> print(topology, out));
    return ExitCode.OK;
  }

  /** The partitions table, then the brokers table. */
  public static void print(Topology topology, PrintStream out) {
    out.println(
        "Cluster "
            + Formats.text(topology.clusterId())
            + ": "
            + topology.partitionCount()
            + " partitions, replication factor "
            + topology.replicationFactor()
            + ", "
            + topology.brokers().size()
            + " brokers (refreshed "
            + Formats.instant(topology.refreshedAt())
            + ")");
    out.println();
    Table partitions = Table.of("partition", "leader", "term", "health");
    topology.partitions().stream()
        .sorted(Comparator.comparingInt(Topology.Partition::partitionId))
        .forEach(
            p ->
                partitions.row(
                    p.partitionId(),
                    p.leaderNodeId() < 0 ? "none" : Integer.toString(p.leaderNodeId()),
                    p.term(),
                    p.health()));
    partitions.print(out);
    out.println();
    Table brokers = Table.of("broker", "address", "reachable", "version", "replicas");
    topology.brokers().stream()
        .sorted(Comparator.comparingInt(Topology.Broker::nodeId))
        .forEach(
            b ->
                brokers.row(
                    b.nodeId(),
                    b.address(),
                    b.reachable() ? "yes" : "no: " + Formats.text(b.error()),
                    Formats.text(b.version()),
                    b.replicas().stream()
                        .sorted(Comparator.comparingInt(Topology.Replica::partitionId))
                        .map(TopologyCommand::replica)
                        .collect(Collectors.joining(" "))));
    brokers.print(out);
  }

  private static String replica(Topology.Replica replica) {
    StringBuilder text =
        new StringBuilder("p").append(replica.partitionId()).append(':').append(replica.role());
    if (replica.health() != Topology.Health.HEALTHY) {
      text.append('(').append(replica.health());
      if (replica.healthReason() != null && !replica.healthReason().isEmpty()) {
        text.append(": ").append(replica.healthReason());
      }
      text.append(')');
    }
    return text.toString();
  }
}
