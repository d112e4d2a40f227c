package io.cairn.broker.schedule;

import io.cairn.backup.schedule.BackupScheduleMetrics;
import io.cairn.broker.Broker;
import io.cairn.broker.BrokerTestCluster;
import io.micrometer.core.instrument.Counter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.stream.Stream;

/** What the schedule's tests look at: the backups in a filesystem store and the brokers' meters. */
final class ScheduledBackupsSeen {

  private ScheduledBackupsSeen() {}

  /** The ids of partition {@code partitionId}'s backups in the filesystem store. */
  static TreeSet<Long> backupIds(Path store, int partitionId) {
    Path partition = store.resolve("manifests").resolve(Integer.toString(partitionId));
    TreeSet<Long> ids = new TreeSet<>();
    if (!Files.isDirectory(partition)) {
      return ids;
    }
    try (Stream<Path> children = Files.list(partition)) {
      children.forEach(child -> ids.add(Long.parseLong(child.getFileName().toString())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ids;
  }

  /** {@value BackupScheduleMetrics#RUNS} with {@code result}, over the running brokers. */
  static double runs(BrokerTestCluster cluster, String result) {
    return sum(cluster, BackupScheduleMetrics.RUNS, "result", result);
  }

  /** A counter's count over the running brokers, its series with {@code tags} summed. */
  static double sum(BrokerTestCluster cluster, String counter, String... tags) {
    double sum = 0;
    for (Broker broker : cluster.brokers()) {
      sum +=
          broker.meterRegistry().find(counter).tags(tags).counters().stream()
              .mapToDouble(Counter::count)
              .sum();
    }
    return sum;
  }
}
