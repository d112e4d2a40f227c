package io.cairn.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backup.BackupManager;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.VerificationReport;
import io.cairn.backupapi.archive.ArchiveLink;
import io.cairn.backupapi.archive.ArchivedCheckpoint;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.backuptestkit.InMemoryBackupStore;
import io.cairn.restore.BackupRestorer;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.BackupVerifier;
import io.cairn.restore.ClusterShape;
import io.cairn.restore.RestoreException;
import io.cairn.restore.RestoreTarget;
import io.cairn.restore.VerifyReport;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The end of a {@link ClusterSimulationTest} seed, once the nodes are stopped and the store holds
 * still: every FAILED backup failed of a fault the nemesis injected or of a change of leader; every
 * COMPLETED backup is intact; every backup completed on every partition, and every restore point of
 * the log archive after the oldest of them, rebuilds to the state digests recorded at its
 * checkpoint and restores into a fresh simulated cluster whose money is whole (a consistent cut
 * holds whole deposits only: a credit counted without its debit, or the reverse, leaves a
 * remainder).
 */
final class SimulatedRestoreChecks {

  /**
   * What a backup may fail of in the simulation: a fault injected into the store, or a change of
   * leader. A backup that fails of anything else (a local file gone before it was read, say) is a
   * finding.
   */
  static final List<String> EXPLAINED = List.of("Injected: ", BackupManager.LEADER_CHANGED);

  private final SimulatedCluster cluster;
  private final long seed;
  private final int partitions;
  private final Path restores;
  private final long deposit;
  private final Function<SimulatedCluster, Map<String, Long>> settledBalances;

  /**
   * @param restores where the restored clusters' directories go
   * @param deposit each account's one deposit: the restored balances add up to a multiple of it
   * @param settledBalances the balances of a restored cluster once they stop moving
   */
  SimulatedRestoreChecks(
      SimulatedCluster cluster,
      long seed,
      int partitions,
      Path restores,
      long deposit,
      Function<SimulatedCluster, Map<String, Long>> settledBalances) {
    this.cluster = cluster;
    this.seed = seed;
    this.partitions = partitions;
    this.restores = restores;
    this.deposit = deposit;
    this.settledBalances = settledBalances;
  }

  /**
   * Checks every backup in the store and every restore point it can restore.
   *
   * @param statuses every backup's status in the store
   * @return how many backups and restore points were restored
   */
  int check(List<BackupStatus> statuses) {
    for (BackupStatus status : statuses) {
      if (status.statusCode() == BackupStatusCode.FAILED) {
        String reason = status.failureReason().orElseThrow();
        assertThat(EXPLAINED.stream().anyMatch(reason::contains))
            .as(
                "seed %d: FAILED %s failed for a reason the nemesis explains (%s): %s",
                seed, status.id(), EXPLAINED, reason)
            .isTrue();
      }
    }
    for (BackupStatus status : statuses) {
      if (status.statusCode() == BackupStatusCode.COMPLETED) {
        VerificationReport report =
            cluster.await(cluster.store.verify(status.id()), "verify " + status.id());
        assertThat(report.isClean())
            .as("seed %d: COMPLETED %s is intact: %s", seed, status.id(), report.describe())
            .isTrue();
      }
    }
    List<Long> restorable = completedEverywhere(statuses);
    assertThat(restorable).as("seed %d: backups completed on every partition", seed).isNotEmpty();
    for (long backupId : restorable) {
      rebuildAndRestore(BackupSelector.exact(backupId), "backup " + backupId);
    }
    List<Long> points = restorePointsAfter(restorable.get(0));
    for (long point : points) {
      rebuildAndRestore(new BackupSelector.ToCheckpoint(point), "restore point " + point);
    }
    System.out.printf(
        "ClusterSimulationTest: seed %d: %d backups and %d restore points (%s) each rebuilt to"
            + " their digests and restored with money whole%n",
        seed, restorable.size(), points.size(), points);
    return restorable.size() + points.size();
  }

  /** The ids of the backups COMPLETED on every partition, ascending. */
  List<Long> completedEverywhere(List<BackupStatus> statuses) {
    Map<Long, Set<Integer>> completed = new TreeMap<>();
    for (BackupStatus status : statuses) {
      if (status.statusCode() == BackupStatusCode.COMPLETED) {
        completed
            .computeIfAbsent(status.id().checkpointId(), id -> new HashSet<>())
            .add(status.id().partitionId());
      }
    }
    return completed.entrySet().stream()
        .filter(entry -> entry.getValue().size() == partitions)
        .map(Map.Entry::getKey)
        .toList();
  }

  /**
   * The restore points archived on every partition after backup {@code oldestBackup} (the archive
   * before the oldest backup kept is retention's to prune), ascending. A point recorded whose
   * records the archive does not hold yet (its point object is written first) is left out, as a
   * restore leaves it out.
   */
  private List<Long> restorePointsAfter(long oldestBackup) {
    Set<Long> common = null;
    for (int partition = 1; partition <= partitions; partition++) {
      Set<Long> ids = new TreeSet<>();
      long archivedTo = archivedTo(partition);
      for (ArchivedCheckpoint point : points(partition, oldestBackup)) {
        if (point.index() <= archivedTo) {
          ids.add(point.id());
        }
      }
      if (common == null) {
        common = ids;
      } else {
        common.retainAll(ids);
      }
    }
    return new ArrayList<>(common);
  }

  /**
   * The restore points with ids below {@code beforeId} that are recorded on a partition whose
   * archive does not hold their records: empty once every archiver caught up.
   */
  List<String> unarchivedPoints(long beforeId) {
    List<String> behind = new ArrayList<>();
    for (int partition = 1; partition <= partitions; partition++) {
      long archivedTo = archivedTo(partition);
      for (ArchivedCheckpoint point : points(partition, 0)) {
        if (point.id() < beforeId && point.index() > archivedTo) {
          behind.add(
              "partition "
                  + partition
                  + " point "
                  + point.id()
                  + " at index "
                  + point.index()
                  + ", archived to "
                  + archivedTo);
        }
      }
    }
    return behind;
  }

  /** Partition {@code partition}'s restore points with ids above {@code afterId}, ascending. */
  private List<ArchivedCheckpoint> points(int partition, long afterId) {
    List<ArchivedCheckpoint> points = new ArrayList<>();
    try (InMemoryBackupStore direct = cluster.directStore()) {
      LogArchive archive = new LogArchive(direct.archive(), partition);
      long after = afterId;
      while (true) {
        List<Long> page = cluster.await(archive.pointIds(after, 100), "restore points");
        for (long id : page) {
          points.add(cluster.await(archive.point(id), "restore point " + id).orElseThrow());
        }
        if (page.size() < 100) {
          return points;
        }
        after = page.get(page.size() - 1);
      }
    }
  }

  /** The last index partition {@code partition}'s archive holds, 0 when empty. */
  private long archivedTo(int partition) {
    try (InMemoryBackupStore direct = cluster.directStore()) {
      return cluster
          .await(new LogArchive(direct.archive(), partition).tail(Optional.empty()), "archive tail")
          .map(tail -> tail.link().toIndex())
          .orElse(0L);
    }
  }

  private void rebuildAndRestore(BackupSelector selector, String what) {
    if (cluster.stampsCheckpoints()) {
      // the verifier replays as the broker does, stamps included: a log written without them
      // rebuilds to other digests (their pending credits record no stamp), which would hide the
      // cut check behind the negative control
      VerifyReport report;
      try {
        report = rebuild(selector, what);
      } catch (RestoreException e) {
        // refused before it began: the point's records are not in the archive (a gap)
        throw notRebuilt(what, e.getMessage(), e);
      }
      if (!report.isClean()) {
        throw notRebuilt(what, report.describe(), null);
      }
    }
    restoreAndCheckMoney(selector, what);
  }

  private AssertionError notRebuilt(String what, String why, Throwable cause) {
    return new AssertionError(
        "seed "
            + seed
            + ": "
            + what
            + " did not rebuild to its digests: "
            + why
            + "\nThe log archive: "
            + describeArchive(),
        cause);
  }

  /** Restores {@code selector} into every node's directory, as {@code cairn restore} does. */
  private void restoreAndCheckMoney(BackupSelector selector, String what) {
    Path root = restores.resolve(what.replace(' ', '-'));
    try (InMemoryBackupStore direct = cluster.directStore()) {
      BackupRestorer restorer =
          BackupRestorer.builder().store(direct).meterRegistry(new SimpleMeterRegistry()).build();
      for (int node : cluster.nodeIds()) {
        restorer.restore(
            new RestoreTarget(
                root.resolve("node-" + node),
                "simulated",
                node,
                new ClusterShape(cluster.nodeIds().size(), partitions, cluster.nodeIds().size()),
                BrokerVersion.current()),
            selector);
      }
    }
    try (SimulatedCluster restored =
        restoredBuilder(root)
            .nodes(cluster.nodeIds().size())
            .partitions(partitions)
            .startMillis(cluster.clock.millis())
            .build()) {
      Map<String, Long> settled = settledBalances.apply(restored);
      long sum = settled.values().stream().mapToLong(Long::longValue).sum();
      assertThat(sum % deposit)
          .as(
              "seed %d: the balances restored from %s (%s) add up to whole deposits",
              seed, what, settled)
          .isZero();
    }
  }

  /** A cluster on restored directories, running the code the backed-up one ran. */
  private SimulatedCluster.Builder restoredBuilder(Path root) {
    SimulatedCluster.Builder builder = SimulatedCluster.builder(root, seed);
    return cluster.stampsCheckpoints() ? builder : builder.withoutCheckpointStamps();
  }

  private VerifyReport rebuild(BackupSelector selector, String what) {
    try (InMemoryBackupStore direct = cluster.directStore()) {
      return BackupVerifier.builder()
          .store(direct)
          .meterRegistry(new SimpleMeterRegistry())
          .build()
          .verify(
              selector, cluster.directory().resolve("rebuild-" + what.replace(' ', '-')), false);
    }
  }

  /** Each partition's archive links (first..last index, the checkpoints they hold). */
  private String describeArchive() {
    StringBuilder text = new StringBuilder();
    try (InMemoryBackupStore direct = cluster.directStore()) {
      for (int partition = 1; partition <= partitions; partition++) {
        LogArchive archive = new LogArchive(direct.archive(), partition);
        text.append("\n  partition ").append(partition).append(':');
        for (String key : cluster.await(archive.linkKeys(null, 1000), "link keys")) {
          ArchiveLink link = cluster.await(archive.readLink(key), "link " + key).link();
          text.append(' ')
              .append(link.fromIndex())
              .append("..")
              .append(link.toIndex())
              .append(link.previousLinkCrc32c().isEmpty() ? "(start)" : "")
              .append(link.checkpoints().stream().map(c -> Long.toString(c.id())).toList());
        }
        text.append(" points ").append(cluster.await(archive.pointIds(0, 1000), "restore points"));
      }
    }
    return text.toString();
  }

  /** Every backup's status in the store. */
  static List<BackupStatus> statuses(SimulatedCluster cluster) {
    return cluster
        .await(
            cluster.store.list(BackupIdentifierWildcard.all(), PageRequest.first(1_000)),
            "the listing")
        .statuses();
  }
}
