package io.cairn.broker.partition;

import static io.cairn.broker.partition.TestLedgerComponent.command;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.broker.exporting.ExporterComponent;
import io.cairn.broker.exporting.ExporterDescriptor;
import io.cairn.broker.exporting.ExporterDirectorConfig;
import io.cairn.broker.exporting.ExporterMetrics;
import io.cairn.broker.exporting.ExportingState;
import io.cairn.logstreams.LogStreamReader;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.snapshot.PersistedSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exporters on real partitions (journal, raft, RocksDB, snapshots) on a deterministic scheduler:
 * order, restart and failover with at-least-once delivery, pause holding compaction, retries.
 */
final class PartitionExportingTest {

  private static final ExporterDirectorConfig DIRECTOR =
      new ExporterDirectorConfig(
          Duration.ofMillis(100), Duration.ofSeconds(2), 50, Duration.ofMillis(200), 5);

  @TempDir Path directory;
  private PartitionCluster cluster;
  private RecordingExporter.Sink sink;
  private final Map<Integer, ExportingState> exporting = new HashMap<>();
  private final Map<Integer, ExporterComponent> exporters = new HashMap<>();

  @AfterEach
  void close() {
    if (cluster != null) {
      cluster.close();
    }
    if (sink != null) {
      RecordingExporter.forget(sink);
    }
  }

  private void startCluster(long seed, int size) {
    cluster =
        new PartitionCluster(
            directory.resolve("cluster"),
            seed,
            size,
            PartitionCluster.CONFIG,
            (cluster, member) -> {
              if (sink == null) {
                sink = RecordingExporter.sink("sink-" + seed, cluster.clock::millis);
              }
              ExporterComponent component =
                  new ExporterComponent(
                      List.of(
                          new ExporterDescriptor(
                              "recorder",
                              null,
                              RecordingExporter.class.getName(),
                              Map.of("sink", sink.name))),
                      exportingState(member.id),
                      DIRECTOR,
                      cluster.scheduler);
              exporters.put(member.id, component);
              return List.of(member.ledger, component);
            });
  }

  private ExportingState exportingState(int id) {
    Path dir = directory.resolve("exporting-" + id);
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    // opened from the file at every start, like a broker
    ExportingState state = ExportingState.open(dir);
    exporting.put(id, state);
    return state;
  }

  private long writeDeposits(Partition leader, int count, int requestBase) {
    long last = -1;
    for (int i = 0; i < count; i++) {
      last =
          cluster.write(
              leader,
              command(DepositIntent.DEPOSIT, new DepositValue("a", 1 + i), requestBase + i));
    }
    return last;
  }

  private static List<Long> committedPositions(Partition partition) {
    return PartitionCluster.committedRecords(partition).stream().map(Record::position).toList();
  }

  private void awaitExported(long position) {
    cluster.runUntil(
        () -> sink.lastExported() >= position,
        Duration.ofSeconds(30),
        "the exporter to be handed position " + position);
  }

  @Test
  void shouldExportEveryCommittedRecordInOrderOnTheLeaderOnly() {
    // given
    startCluster(71, 3);
    Partition leader = cluster.awaitLeader();
    cluster.write(leader, command(AccountIntent.CREATE, new AccountValue("a", 0), 1));

    // when
    long last = writeDeposits(leader, 40, 10);
    cluster.awaitConverged(last, Duration.ofSeconds(10));
    awaitExported(committedPositions(leader).get(committedPositions(leader).size() - 1));

    // then every committed record was handed over once, in log order, by the leader alone
    assertThat(sink.exported).isEqualTo(committedPositions(leader));
    assertThat(sink.openedAt).containsExactly(-1L);
    double exportedRecords =
        cluster
            .member(leader.nodeId())
            .registry
            .get(ExporterMetrics.RECORDS)
            .tag("partition", "1")
            .counter()
            .count();
    assertThat(exportedRecords).isEqualTo(sink.exported.size());
  }

  @Test
  void shouldResumeAfterTheAcknowledgedPositionOfTheSnapshotAfterARestartWithoutGaps() {
    // given records exported, their positions in the state, and a snapshot of it
    startCluster(73, 1);
    Partition leader = cluster.awaitLeader();
    cluster.write(leader, command(AccountIntent.CREATE, new AccountValue("a", 0), 1));
    long last = writeDeposits(leader, 20, 10);
    cluster.awaitConverged(last, Duration.ofSeconds(10));
    long acknowledged = committedPositions(leader).get(committedPositions(leader).size() - 1);
    awaitExported(acknowledged);
    cluster.runUntil(
        () -> stateExportedPosition(cluster.partition(0)) == acknowledged,
        Duration.ofSeconds(5),
        "the acknowledged position in the state");
    PersistedSnapshot snapshot = cluster.await(leader.takeSnapshot(), "snapshot").orElseThrow();
    assertThat(snapshot.metadata().exportedPosition()).isEqualTo(acknowledged);

    // and more records exported after the snapshot
    last = writeDeposits(leader, 10, 100);
    cluster.awaitConverged(last, Duration.ofSeconds(10));
    List<Long> before = committedPositions(leader);
    awaitExported(before.get(before.size() - 1));
    int exportedBeforeRestart = sink.exported.size();

    // when the member restarts
    cluster.stop(0);
    cluster.restart(0);
    leader = cluster.awaitLeader();
    last = writeDeposits(leader, 5, 200);
    cluster.awaitConverged(last, Duration.ofSeconds(10));
    List<Long> all = committedPositions(leader);
    awaitExported(all.get(all.size() - 1));

    // then the new instance resumed right after the snapshot's acknowledged position: the records
    // after it come again (at least once), nothing before it, and no position is missing
    assertThat(sink.openedAt).containsExactly(-1L, acknowledged);
    List<Long> resumed = sink.exported.subList(exportedBeforeRestart, sink.exported.size());
    assertThat(resumed.get(0)).isEqualTo(all.get(all.indexOf(acknowledged) + 1));
    assertThat(resumed).isEqualTo(all.subList(all.indexOf(acknowledged) + 1, all.size()));
    assertThat(new TreeSet<>(sink.exported)).containsExactlyElementsOf(all);
  }

  @Test
  void shouldStopExportingAndHoldCompactionWhilePausedAcrossARestartAndGoOnWhenResumed() {
    // given an exporter that saw everything so far
    startCluster(79, 1);
    Partition leader = cluster.awaitLeader();
    cluster.write(leader, command(AccountIntent.CREATE, new AccountValue("a", 0), 1));
    long last = writeDeposits(leader, 10, 10);
    cluster.awaitConverged(last, Duration.ofSeconds(10));
    List<Long> beforePause = committedPositions(leader);
    long exportedBeforePause = beforePause.get(beforePause.size() - 1);
    awaitExported(exportedBeforePause);
    cluster.run(Duration.ofMillis(500)); // positions into the state

    // when exporting is paused, many segments are written, two snapshots are taken (the second
    // has the first as its base, so without the exporter's hold the log would be compacted up to
    // the first) and the member restarts (reading the paused flag from its file)
    exporting.get(0).pause();
    last = writeDeposits(leader, 200, 100);
    cluster.awaitConverged(last, Duration.ofSeconds(30));
    cluster.await(leader.takeSnapshot(), "first snapshot while paused").orElseThrow();
    last = writeDeposits(leader, 200, 300);
    cluster.awaitConverged(last, Duration.ofSeconds(30));
    cluster.await(leader.takeSnapshot(), "second snapshot while paused").orElseThrow();
    cluster.run(Duration.ofMillis(500)); // compaction after the snapshot
    cluster.stop(0);
    cluster.restart(0);
    leader = cluster.awaitLeader();
    cluster.run(Duration.ofSeconds(2));

    // then nothing was exported while paused, and the log still holds the first record after the
    // acknowledged position
    assertThat(exporting.get(0).isPaused()).isTrue();
    assertThat(sink.lastExported()).isEqualTo(exportedBeforePause);
    assertThat(firstReadablePosition(leader)).isLessThanOrEqualTo(exportedBeforePause + 1);

    // when resumed
    exporting.get(0).resume();
    List<Long> all = committedPositions(leader);
    awaitExported(all.get(all.size() - 1));

    // then it goes on right after the acknowledged position, in order, without gaps
    int resumedAt = sink.exported.indexOf(exportedBeforePause + 1);
    assertThat(resumedAt).isPositive();
    assertThat(sink.exported.subList(resumedAt, sink.exported.size()))
        .isEqualTo(all.subList(all.indexOf(exportedBeforePause + 1), all.size()));

    // and once the positions are in a new snapshot, the log is compacted again
    Partition resumedLeader = leader;
    long firstBefore = leader.context().journal().getFirstIndex();
    cluster.run(Duration.ofMillis(500));
    last = writeDeposits(leader, 1, 900);
    cluster.awaitConverged(last, Duration.ofSeconds(10));
    awaitExported(last);
    cluster.run(Duration.ofMillis(500));
    cluster.await(leader.takeSnapshot(), "snapshot after resume").orElseThrow();
    cluster.runUntil(
        () -> resumedLeader.context().journal().getFirstIndex() > firstBefore,
        Duration.ofSeconds(5),
        "the log compacted after the exporter caught up");
  }

  @Test
  void shouldRetryAThrowingExporterWithBackoffWhileProcessingGoesOn() {
    // given an exporter that fails its next 4 exports
    startCluster(83, 1);
    Partition leader = cluster.awaitLeader();
    long created =
        cluster.write(leader, command(AccountIntent.CREATE, new AccountValue("a", 0), 1));
    cluster.awaitConverged(created, Duration.ofSeconds(5));
    awaitExported(committedPositions(leader).get(committedPositions(leader).size() - 1));
    sink.failuresLeft.set(4);

    // when commands keep coming
    long last = writeDeposits(leader, 30, 10);

    // then processing goes on meanwhile
    cluster.awaitConverged(last, Duration.ofSeconds(10));
    assertThat(cluster.await(leader.readState(TestLedgerComponent::balances), "balances"))
        .containsEntry("a", 465L);

    // and the exporter gets every record, in order, once its failures are over
    List<Long> all = committedPositions(leader);
    awaitExported(all.get(all.size() - 1));
    assertThat(sink.exported).isEqualTo(all);
    // the attempts were 100ms, 200ms and 400ms apart (doubling backoff)
    List<Long> failed = sink.failedAtMillis;
    assertThat(failed).hasSize(4);
    assertThat(failed.get(1) - failed.get(0)).isBetween(100L, 150L);
    assertThat(failed.get(2) - failed.get(1)).isBetween(200L, 250L);
    assertThat(failed.get(3) - failed.get(2)).isBetween(400L, 450L);
    assertThat(cluster.member(0).registry.get(ExporterMetrics.FAILURES).counter().count())
        .isEqualTo(4.0);
  }

  @Test
  void shouldTellFollowersThePositionsSoThatANewLeaderResumesThere() {
    // given a leader whose exporter acknowledged everything
    startCluster(89, 3);
    Partition leader = cluster.awaitLeader();
    cluster.write(leader, command(AccountIntent.CREATE, new AccountValue("a", 0), 1));
    long last = writeDeposits(leader, 20, 10);
    cluster.awaitConverged(last, Duration.ofSeconds(10));
    List<Long> all = committedPositions(leader);
    long acknowledged = all.get(all.size() - 1);
    awaitExported(acknowledged);

    // when the positions reached the followers' state
    cluster.runUntil(
        () ->
            cluster.running().stream()
                .allMatch(partition -> stateExportedPosition(partition) == acknowledged),
        Duration.ofSeconds(5),
        "every member's state at the acknowledged position");

    // and the leader goes away
    cluster.stop(leader.nodeId());
    Partition next = cluster.awaitLeaderOtherThan(leader);
    cluster.run(Duration.ofSeconds(1));

    // then the new leader's exporter resumed after the acknowledged position: nothing again
    assertThat(next.nodeId()).isNotEqualTo(leader.nodeId());
    assertThat(sink.openedAt).containsExactly(-1L, acknowledged);
    assertThat(sink.exported).isEqualTo(all);
  }

  private long stateExportedPosition(Partition partition) {
    ExporterComponent component = exporters.get(partition.nodeId());
    Long position =
        cluster.summaryOrNull(partition) == null
            ? null
            : cluster.await(partition.readState(component::exportedPosition), "positions");
    return position == null ? -2 : position;
  }

  private static long firstReadablePosition(Partition partition) {
    try (LogStreamReader reader = partition.logStream().newReader()) {
      return reader.hasNext() ? reader.next().position() : -1;
    }
  }
}
