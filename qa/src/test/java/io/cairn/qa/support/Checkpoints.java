package io.cairn.qa.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.client.BackupState;
import io.cairn.client.BackupTaken;
import io.cairn.client.CairnClient;
import io.cairn.client.PartitionCheckpoint;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Asserts what a TakeBackup answer says about each partition's checkpoint.
 *
 * <p>Under cross-partition load a partition may take the checkpoint before the gateway's {@code
 * CHECKPOINT CREATE} reaches it: a command from a partition that took it already carries its id
 * (the consistent cut). That partition then answers the gateway's command as one it has already
 * ({@code created} false, position 0). And when the gateway sent a partition's command again after
 * a first attempt of unknown outcome, the answer counts as created but carries no position. Which
 * partitions answer so depends on timing only; what holds in every interleaving is that every
 * partition is at the checkpoint, the request created it on at least one, and a position comes only
 * with a checkpoint this request created.
 */
public final class Checkpoints {

  private Checkpoints() {}

  /**
   * Asserts that every partition {@code 1..partitions} answered, in order, at checkpoint {@code
   * backupId}; that the request created it on at least one; and that only a partition on which it
   * created the checkpoint answered a log position.
   *
   * @return the log position of the checkpoint per partition that answered one
   */
  public static Map<Integer, Long> assertTakenOnEveryPartition(
      BackupTaken taken, long backupId, int partitions) {
    assertThat(taken.backupId()).isEqualTo(backupId);
    assertThat(taken.partitions())
        .extracting(PartitionCheckpoint::partitionId)
        .containsExactlyElementsOf(IntStream.rangeClosed(1, partitions).boxed().toList());
    assertThat(taken.partitions())
        .allSatisfy(
            p -> {
              assertThat(p.checkpointId()).as("checkpoint of %s", p).isEqualTo(backupId);
              assertThat(p.checkpointPosition()).as("position of %s", p).isNotNegative();
              if (!p.created()) {
                assertThat(p.checkpointPosition()).as("position of %s", p).isZero();
              }
            });
    assertThat(taken.partitions())
        .as("partitions on which TakeBackup %s created the checkpoint", backupId)
        .anySatisfy(p -> assertThat(p.created()).isTrue());
    Map<Integer, Long> positions = new TreeMap<>();
    taken.partitions().stream()
        .filter(p -> p.checkpointPosition() > 0)
        .forEach(p -> positions.put(p.partitionId(), p.checkpointPosition()));
    return positions;
  }

  /**
   * Waits for every pending credit (the balances add up to the oracle's deposits), reads every
   * balance, then takes backup {@code id} and waits for it to complete: with no command in flight,
   * the balances returned are those at the checkpoint.
   */
  public static Map<String, Long> settledBackup(
      CairnClient client, long id, LedgerOracle oracle, Duration timeout) {
    Map<String, Long> balances = new TreeMap<>();
    await("the balances to add up to " + oracle.total() + " before checkpoint " + id)
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              balances.clear();
              balances.putAll(oracle.balances(client));
              assertThat(balances.values().stream().mapToLong(Long::longValue).sum())
                  .isEqualTo(oracle.total());
            });
    completedBackup(client, id, timeout);
    return Map.copyOf(balances);
  }

  /** Takes backup {@code id} and waits for it to complete. */
  public static void completedBackup(CairnClient client, long id, Duration timeout) {
    client.takeBackup(id);
    await("backup " + id + " COMPLETED")
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptions()
        .until(() -> client.getBackup(id).state() == BackupState.COMPLETED);
  }
}
