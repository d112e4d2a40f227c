package io.cairn.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.engine.credit.CreditSender;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A cross-partition transfer to an account that does not exist on the target partition: the target
 * refuses the credit and the source is refunded — exactly once, across leader changes on both sides
 * and replays — and once nothing is pending, Σ balances = Σ deposits. Without the refund the
 * invariant checks fail. Several partitions on real RocksDB states ({@link InMemoryLedgerCluster}).
 *
 * <p>Rerun seeds with {@code -Dcairn.seed=<seed>[,<seed>...]}.
 */
class LedgerRefundTest {

  private static final boolean LONG = Boolean.getBoolean("cairn.simulation.long");
  private static final int STEPS = LONG ? 1_000 : 200;
  private static final UnaryOperator<Record> DROP_REFUNDS =
      command -> command.metadata().intent() == CreditIntent.REFUND ? null : command;

  @TempDir Path directory;

  @Test
  void shouldRefundTransferToUnknownAccountOnAnotherPartition() {
    try (InMemoryLedgerCluster cluster = cluster("plain", 3)) {
      // given
      String alice = LedgerAccounts.on(cluster.placement(), 1, "alice");
      String bob = LedgerAccounts.on(cluster.placement(), 2, "bob");
      String ghost = LedgerAccounts.on(cluster.placement(), 2, "ghost");
      open(cluster, 100, alice, bob);
      Map<String, Long> targetBefore = cluster.partition(2).state().balances();

      // when
      long key = transferKey(cluster, alice, ghost, 40);
      cluster.run(Duration.ofSeconds(2));

      // then the source is whole again and the target did not change
      assertThat(cluster.partition(1).state().balance(alice)).hasValue(100);
      assertThat(cluster.partition(2).state().balances()).isEqualTo(targetBefore);
      assertThat(cluster.partition(2).state().balance(ghost)).isEmpty();
      assertThat(cluster.partition(2).state().isCreditRefused(key)).isTrue();
      LedgerInvariants.assertSettled(states(cluster), logs(cluster), "after the refund");
      assertThat(events(cluster.partition(1), key))
          .containsExactly(TransferIntent.DEBITED, TransferIntent.REFUNDED);
      assertThat(events(cluster.partition(2), key)).containsExactly(CreditIntent.REFUSED);
      assertThat(cluster.partition(1).state().pendingCredits()).isEmpty();
    }
  }

  @Test
  void shouldRefundOnceWhenTheTargetChangesLeaderBeforeTheRefundArrives() {
    try (InMemoryLedgerCluster cluster = cluster("target-fails-over", 3)) {
      // given the target refused the credit, and its REFUND got lost
      String alice = LedgerAccounts.on(cluster.placement(), 1, "alice");
      String ghost = LedgerAccounts.on(cluster.placement(), 2, "ghost");
      open(cluster, 100, alice);
      cluster.channel().rewrite(DROP_REFUNDS);
      long key = transferKey(cluster, alice, ghost, 40);
      cluster.run(Duration.ofMillis(100));
      assertThat(cluster.partition(2).state().isCreditRefused(key)).isTrue();
      assertThat(cluster.partition(1).state().balance(alice)).hasValue(60);

      // when the target's leader changes and the channel delivers again
      cluster.partition(2).failOver();
      cluster.channel().rewrite(UnaryOperator.identity());
      cluster.run(Duration.ofSeconds(3));

      // then the new leader answers the re-sent APPLY with a REFUND, and the source refunds once
      assertThat(cluster.partition(1).state().balance(alice)).hasValue(100);
      assertThat(events(cluster.partition(2), key))
          .startsWith(CreditIntent.REFUSED, CreditIntent.IGNORED)
          .containsOnlyOnce(CreditIntent.REFUSED)
          .doesNotContain(CreditIntent.APPLIED);
      assertThat(LedgerInvariants.refundedCounts(logs(cluster))).containsEntry(key, 1);
      LedgerInvariants.assertSettled(states(cluster), logs(cluster), "after the refund");
      assertReplaysMatch(cluster, "target-fails-over");
    }
  }

  @Test
  void shouldRefundOnceWhenTheSourceLosesItsUncommittedRefund() {
    try (InMemoryLedgerCluster cluster = cluster("source-fails-over", 3)) {
      // given the source wrote TRANSFER REFUNDED, but it is not committed
      String alice = LedgerAccounts.on(cluster.placement(), 1, "alice");
      String ghost = LedgerAccounts.on(cluster.placement(), 3, "ghost");
      open(cluster, 100, alice);
      long key = transferKey(cluster, alice, ghost, 40);
      cluster.runUntilIdle();
      InMemoryLedgerCluster.Partition source = cluster.partition(1);
      source.log().holdCommits();
      long refund = awaitCommand(cluster, source, CreditIntent.REFUND, key);
      source.log().commitUpTo(refund);
      cluster.run(Duration.ofMillis(5));
      assertThat(events(source, key))
          .containsExactly(TransferIntent.DEBITED, TransferIntent.REFUNDED);
      assertThat(source.state().balance(alice)).hasValue(100);
      assertThat(source.log().committedRecords())
          .noneMatch(r -> r.metadata().intent() == TransferIntent.REFUNDED);

      // when the source's leader changes: the uncommitted REFUNDED is lost
      source.failOver();
      source.log().releaseCommits();
      cluster.run(Duration.ofSeconds(3));

      // then the new leader processes the committed REFUND again: refunded once
      assertThat(source.state().balance(alice)).hasValue(100);
      assertThat(LedgerInvariants.refundedCounts(logs(cluster))).containsEntry(key, 1);
      assertThat(LedgerInvariants.refusedCounts(logs(cluster))).containsEntry(key, 1);
      LedgerInvariants.assertSettled(states(cluster), logs(cluster), "after the refund");
      assertReplaysMatch(cluster, "source-fails-over");
    }
  }

  @Test
  void shouldFailTheConservationChecksWithoutTheRefund() {
    // given refunds that never arrive: money is stuck in a pending credit
    try (InMemoryLedgerCluster cluster = cluster("no-refund", 3)) {
      String alice = LedgerAccounts.on(cluster.placement(), 1, "alice");
      String ghost = LedgerAccounts.on(cluster.placement(), 2, "ghost");
      open(cluster, 100, alice);
      cluster.channel().rewrite(DROP_REFUNDS);

      // when
      transferKey(cluster, alice, ghost, 40);
      cluster.run(Duration.ofSeconds(5));

      // then the money is accounted for, but never settles
      LedgerInvariants.assertConserved(states(cluster), logs(cluster), "refunds dropped");
      assertThatThrownBy(
              () ->
                  LedgerInvariants.assertSettled(states(cluster), logs(cluster), "refunds dropped"))
          .isInstanceOf(AssertionError.class)
          .hasMessage(
              "Expected no pending credit and Σ balances = Σ deposits, but 1 credits are pending"
                  + " and 60 != 100 (refunds dropped)");
    }
    // given a source that ends the pending credit without crediting back (REFUND taken for ACK)
    try (InMemoryLedgerCluster cluster = cluster("refund-as-ack", 3)) {
      String alice = LedgerAccounts.on(cluster.placement(), 1, "alice");
      String ghost = LedgerAccounts.on(cluster.placement(), 2, "ghost");
      open(cluster, 100, alice);
      cluster
          .channel()
          .rewrite(
              command ->
                  command.metadata().intent() == CreditIntent.REFUND
                      ? CreditSender.ackCommand(
                          (CreditValue) command.value(), command.metadata().checkpointId())
                      : command);

      // when
      transferKey(cluster, alice, ghost, 40);
      cluster.run(Duration.ofSeconds(5));

      // then money was destroyed, and the checker says so
      assertThat(cluster.partition(1).state().pendingCredits()).isEmpty();
      assertThatThrownBy(
              () -> LedgerInvariants.assertConserved(states(cluster), logs(cluster), "no refund"))
          .isInstanceOf(AssertionError.class)
          .hasMessage(
              "Expected Σ balances + Σ unapplied pending credits = Σ deposits, but 60 + 0 != 100"
                  + " (no refund)");
    }
  }

  static LongStream seeds() {
    String seeds = System.getProperty("cairn.seed");
    if (seeds != null && !seeds.isBlank()) {
      return Arrays.stream(seeds.split(",")).mapToLong(s -> Long.parseLong(s.trim()));
    }
    return LONG ? LongStream.rangeClosed(101, 130) : LongStream.of(101, 102, 103, 104);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void shouldRefundExactlyOnceAcrossLeaderChangesOnBothSidesAndReplays(long seed) {
    try {
      refundUnderFaults(seed);
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(
          "Refund simulation failed with seed " + seed + " (rerun: -Dcairn.seed=" + seed + ")", e);
    }
  }

  private void refundUnderFaults(long seed) {
    Random random = new Random(seed);
    try (InMemoryLedgerCluster cluster =
        InMemoryLedgerCluster.builder()
            .directory(directory.resolve("seed-" + seed))
            .partitionCount(3)
            .seed(seed)
            .commitInterval(seed % 2 == 0 ? null : Duration.ofMillis(20))
            .engineConfig(
                LedgerEngineConfig.builder()
                    .partitionCount(3)
                    .creditRetryInterval(Duration.ofMillis(50))
                    .creditRetryIntervalMax(Duration.ofMillis(400))
                    .creditRetryCheckInterval(Duration.ofMillis(10))
                    .build())
            .build()) {
      cluster
          .channel()
          .delay(Duration.ofMillis(1), Duration.ofMillis(30))
          .dropProbability(0.2)
          .duplicateProbability(0.3);
      List<String> accounts = new ArrayList<>();
      List<String> ghosts = new ArrayList<>();
      for (int partition = 1; partition <= 3; partition++) {
        accounts.addAll(LedgerAccounts.on(cluster.placement(), partition, "acct-" + seed, 2));
        ghosts.add(LedgerAccounts.on(cluster.placement(), partition, "ghost-" + seed));
      }
      open(cluster, 1_000, accounts.toArray(String[]::new));

      int failOvers = 0;
      for (int step = 0; step < STEPS; step++) {
        double action = random.nextDouble();
        if (action < 0.6) {
          String from = pick(accounts, random);
          String to = random.nextBoolean() ? pick(ghosts, random) : pick(accounts, random);
          if (!from.equals(to)) {
            cluster.transfer(from, to, 1 + random.nextInt(200));
          }
        } else if (action < 0.72) {
          cluster.partition(1 + random.nextInt(3)).failOver();
          failOvers++;
        } else if (action < 0.74) {
          cluster.checkpoint(step + 1);
        }
        cluster.run(Duration.ofMillis(random.nextInt(25)));
        List<List<Record>> logs = logs(cluster);
        LedgerInvariants.assertConserved(states(cluster), logs, "step " + step);
        LedgerInvariants.assertSettledAtMostOnce(logs, "step " + step);
      }

      cluster.channel().heal();
      for (int second = 0; second < 30 && !quiescent(cluster); second++) {
        cluster.run(Duration.ofSeconds(1));
      }
      cluster.commitAll();
      cluster.runUntilIdle();

      List<List<Record>> logs = logs(cluster);
      LedgerInvariants.assertSettled(states(cluster), logs, "after healing");
      LedgerInvariants.assertSettledAtMostOnce(logs, "after healing");
      Map<Long, Integer> refused = LedgerInvariants.refusedCounts(logs);
      Map<Long, Integer> refunded = LedgerInvariants.refundedCounts(logs);
      Set<Long> toGhosts = debitsTo(logs, new HashSet<>(ghosts));
      assertThat(refunded.keySet()).isEqualTo(toGhosts).isEqualTo(refused.keySet());
      assertThat(refunded.values()).containsOnly(1);
      assertThat(toGhosts).as("refunded transfers").hasSizeGreaterThan(STEPS / 20);
      assertThat(failOvers).as("leader changes").isPositive();
      for (String ghost : ghosts) {
        assertThat(cluster.partitionOf(ghost).state().balance(ghost)).as(ghost).isEmpty();
      }
      assertReplaysMatch(cluster, "seed-" + seed);
    }
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private InMemoryLedgerCluster cluster(String name, int partitions) {
    return InMemoryLedgerCluster.builder()
        .directory(directory.resolve(name))
        .partitionCount(partitions)
        .build();
  }

  private static void open(InMemoryLedgerCluster cluster, long amount, String... accounts) {
    for (String account : accounts) {
      cluster.createAccount(account);
    }
    cluster.runUntilIdle();
    for (String account : accounts) {
      cluster.deposit(account, amount);
    }
    cluster.commitAll();
    cluster.runUntilIdle();
  }

  /** Writes the transfer, lets the source process it and returns its transfer key. */
  private static long transferKey(
      InMemoryLedgerCluster cluster, String from, String to, long amount) {
    InMemoryLedgerCluster.Partition source = cluster.partitionOf(from);
    long position = source.log().lastWrittenPosition() + 1;
    assertThat(cluster.transfer(from, to, amount).isWritten()).isTrue();
    cluster.runUntilIdle();
    long key = LedgerKeys.of(source.id(), position);
    assertThat(events(source, key)).startsWith(TransferIntent.DEBITED);
    return key;
  }

  /** Runs until {@code partition}'s log has the command of {@code intent} for {@code key}. */
  private static long awaitCommand(
      InMemoryLedgerCluster cluster,
      InMemoryLedgerCluster.Partition partition,
      CreditIntent intent,
      long key) {
    for (int i = 0; i < 1_000; i++) {
      OptionalLong position =
          partition.writtenRecords().stream()
              .filter(
                  r ->
                      r.metadata().recordType() == RecordType.COMMAND
                          && r.metadata().intent() == intent
                          && r.metadata().key() == key)
              .mapToLong(r -> r.metadata().position())
              .findFirst();
      if (position.isPresent()) {
        return position.getAsLong();
      }
      cluster.run(Duration.ofMillis(1));
    }
    throw new AssertionError(
        "Expected CREDIT " + intent + " of " + key + " in partition " + partition.id());
  }

  /** The intents of the events with {@code key} in the partition's log, in order. */
  private static List<Object> events(InMemoryLedgerCluster.Partition partition, long key) {
    return partition.writtenRecords().stream()
        .filter(r -> r.metadata().recordType() == RecordType.EVENT && r.metadata().key() == key)
        .map(r -> (Object) r.metadata().intent())
        .toList();
  }

  /** The keys of the cross-partition debits to one of {@code accounts}. */
  private static Set<Long> debitsTo(List<List<Record>> logs, Set<String> accounts) {
    Set<Long> keys = new HashSet<>();
    for (List<Record> log : logs) {
      for (Record record : log) {
        if (record.metadata().recordType() == RecordType.EVENT
            && record.metadata().intent() == TransferIntent.DEBITED
            && accounts.contains(((TransferValue) record.value()).toAccountId())) {
          keys.add(record.metadata().key());
        }
      }
    }
    return keys;
  }

  private void assertReplaysMatch(InMemoryLedgerCluster cluster, String name) {
    for (InMemoryLedgerCluster.Partition partition : cluster.partitions()) {
      assertThat(partition.replayDigest(directory.resolve("replay-" + name + "-" + partition.id())))
          .as("digest of a replay of partition %d", partition.id())
          .isEqualTo(partition.stateDigest());
    }
  }

  private static boolean quiescent(InMemoryLedgerCluster cluster) {
    return cluster.partitions().stream().allMatch(p -> p.state().pendingCredits().isEmpty());
  }

  private static List<LedgerState> states(InMemoryLedgerCluster cluster) {
    return cluster.partitions().stream().map(InMemoryLedgerCluster.Partition::state).toList();
  }

  private static List<List<Record>> logs(InMemoryLedgerCluster cluster) {
    return cluster.partitions().stream()
        .map(InMemoryLedgerCluster.Partition::writtenRecords)
        .toList();
  }

  private static <T> T pick(List<T> values, Random random) {
    return values.get(random.nextInt(values.size()));
  }
}
