package io.cairn.backupapi;

import static io.cairn.backupapi.BackupStatusCode.COMPLETED;
import static io.cairn.backupapi.BackupStatusCode.DOES_NOT_EXIST;
import static io.cairn.backupapi.BackupStatusCode.FAILED;
import static io.cairn.backupapi.BackupStatusCode.IN_PROGRESS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BackupStatusAggregatorTest {

  private static final long CHECKPOINT = 7;
  private static final Instant T0 = Instant.parse("2025-03-01T10:00:00Z");

  /** A partition status "p<partition>n<node>:<code>" for the table. */
  private static BackupStatus status(int partition, int node, BackupStatusCode code) {
    var id = new BackupIdentifier(node, partition, CHECKPOINT);
    if (code == DOES_NOT_EXIST) {
      return BackupStatus.doesNotExist(id);
    }
    Optional<BackupDescriptor> descriptor =
        code == COMPLETED
            ? Optional.of(
                new BackupDescriptor(
                    CHECKPOINT, partition, node, 100, Optional.empty(), 4, "0.1.0", "ab", 0, 0))
            : Optional.empty();
    Optional<String> reason = code == FAILED ? Optional.of("leader changed") : Optional.empty();
    return new BackupStatus(id, code, descriptor, reason, Optional.of(T0), Optional.of(T0));
  }

  /** Parses "1:COMPLETED 2:FAILED@1 ..." — partition, code, optional node. */
  private static List<BackupStatus> statuses(String table) {
    List<BackupStatus> result = new ArrayList<>();
    for (String cell : table.trim().split("\\s+")) {
      if (cell.isEmpty()) {
        continue;
      }
      String[] parts = cell.split("[:@]");
      int node = parts.length > 2 ? Integer.parseInt(parts[2]) : 0;
      result.add(status(Integer.parseInt(parts[0]), node, BackupStatusCode.valueOf(parts[1])));
    }
    return result;
  }

  static Stream<Arguments> table() {
    return Stream.of(
        // partitions, statuses, expected code, expected reason (substring; "" = no reason)
        arguments(3, "", ClusterBackupStatusCode.DOES_NOT_EXIST, "no partition has backup 7"),
        arguments(
            3,
            "1:DOES_NOT_EXIST 2:DOES_NOT_EXIST",
            ClusterBackupStatusCode.DOES_NOT_EXIST,
            "no partition"),
        arguments(3, "1:COMPLETED 2:COMPLETED 3:COMPLETED", ClusterBackupStatusCode.COMPLETED, ""),
        arguments(1, "1:COMPLETED", ClusterBackupStatusCode.COMPLETED, ""),
        arguments(
            3,
            "1:COMPLETED 2:FAILED 3:COMPLETED",
            ClusterBackupStatusCode.FAILED,
            "partition 2 failed: leader changed"),
        arguments(
            3,
            "1:FAILED 2:IN_PROGRESS",
            ClusterBackupStatusCode.FAILED,
            "partition 1 failed: leader changed"),
        arguments(
            3,
            "1:COMPLETED 2:IN_PROGRESS 3:COMPLETED",
            ClusterBackupStatusCode.IN_PROGRESS,
            "partition 2 in progress"),
        arguments(
            3,
            "1:IN_PROGRESS 2:COMPLETED",
            ClusterBackupStatusCode.IN_PROGRESS,
            "partition 3 not started"),
        arguments(
            3,
            "1:COMPLETED 3:COMPLETED",
            ClusterBackupStatusCode.INCOMPLETE,
            "partition 2 without a backup (2 of 3 partitions completed)"),
        arguments(
            4,
            "1:COMPLETED",
            ClusterBackupStatusCode.INCOMPLETE,
            "partitions 2, 3, 4 without a backup"),
        // several nodes hold one partition: the best copy counts
        arguments(2, "1:FAILED@0 1:COMPLETED@1 2:COMPLETED", ClusterBackupStatusCode.COMPLETED, ""),
        arguments(2, "1:COMPLETED@1 1:FAILED@0 2:COMPLETED", ClusterBackupStatusCode.COMPLETED, ""),
        arguments(
            2,
            "1:FAILED@0 1:IN_PROGRESS@1 2:COMPLETED",
            ClusterBackupStatusCode.IN_PROGRESS,
            "partition 1 in progress"),
        arguments(
            2,
            "1:DOES_NOT_EXIST@0 1:FAILED@1 2:COMPLETED",
            ClusterBackupStatusCode.FAILED,
            "partition 1 failed"),
        arguments(
            3,
            "1:FAILED 2:FAILED 3:COMPLETED",
            ClusterBackupStatusCode.FAILED,
            "partition 1 failed: leader changed; partition 2 failed: leader changed"));
  }

  @ParameterizedTest(name = "{0} partitions, [{1}] -> {2}")
  @MethodSource("table")
  void shouldAggregatePartitionStatuses(
      int partitions, String table, ClusterBackupStatusCode expected, String reason) {
    ClusterBackupStatus status =
        BackupStatusAggregator.aggregate(CHECKPOINT, partitions, statuses(table));

    assertThat(status.statusCode()).isEqualTo(expected);
    assertThat(status.checkpointId()).isEqualTo(CHECKPOINT);
    if (reason.isEmpty()) {
      assertThat(status.reason()).isEmpty();
    } else {
      assertThat(status.reason()).get().asString().contains(reason);
    }
  }

  @Test
  void shouldKeepTheBestStatusOfEachPartition() {
    ClusterBackupStatus status =
        BackupStatusAggregator.aggregate(
            CHECKPOINT, 3, statuses("1:FAILED@0 1:COMPLETED@2 2:IN_PROGRESS@1"));

    assertThat(status.partitions()).containsOnlyKeys(1, 2);
    assertThat(status.partitions().get(1).id().nodeId()).isEqualTo(2);
    assertThat(status.partitions().get(1).statusCode()).isEqualTo(COMPLETED);
    assertThat(status.partitions().get(2).statusCode()).isEqualTo(IN_PROGRESS);
  }

  @Test
  void shouldRejectStatusOfAnotherBackup() {
    var other = BackupStatus.doesNotExist(new BackupIdentifier(0, 1, 8));

    assertThatThrownBy(() -> BackupStatusAggregator.aggregate(CHECKPOINT, 3, List.of(other)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("backup 7");
  }

  @Test
  void shouldRejectPartitionOutsideTheCluster() {
    assertThatThrownBy(
            () -> BackupStatusAggregator.aggregate(CHECKPOINT, 3, List.of(status(4, 0, COMPLETED))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("partitions 1..3");
  }

  @Test
  void shouldRejectPartitionCountBelowOne() {
    assertThatThrownBy(() -> BackupStatusAggregator.aggregate(CHECKPOINT, 0, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("partitionCount >= 1");
  }
}
