package io.cairn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.db.DbConfig;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A stream of transfers on a partition replicated by three raft members (real journals, simulated
 * network), with the leader cut off in the middle of the stream several times. Every committed
 * command is processed exactly once, every command a client got a response for is in the log as
 * answered, and all members reach the same state digest at the same position.
 */
class LedgerLeaderChangeTest {

  private static final int ACCOUNTS = 8;
  private static final long OPENING_DEPOSIT = 1_000;
  private static final int ROUNDS = 3;
  private static final int STEPS_PER_ROUND = 150;
  private static final int MAX_STEPS_PER_ROUND = 1_000;

  @TempDir Path directory;

  static LongStream seeds() {
    String seeds = System.getProperty("cairn.seed");
    if (seeds != null && !seeds.isBlank()) {
      return Arrays.stream(seeds.split(",")).mapToLong(s -> Long.parseLong(s.trim()));
    }
    return Boolean.getBoolean("cairn.simulation.long")
        ? LongStream.rangeClosed(1, 10)
        : LongStream.of(1, 2);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void shouldProcessEveryCommandOnceAndKeepAnsweredOnesAcrossLeaderChanges(long seed) {
    try {
      run(seed);
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(
          "Leader change test failed with seed " + seed + " (rerun: -Dcairn.seed=" + seed + ")", e);
    }
  }

  private void run(long seed) {
    Random random = new Random(seed);
    try (RaftLedgerPartition partition =
        new RaftLedgerPartition(
            directory.resolve("seed-" + seed),
            seed,
            LedgerEngineConfig.of(1),
            InterPartitionSender.NONE,
            DbConfig.defaults())) {
      Client client = new Client(partition);
      partition.awaitLeader();

      // given funded accounts
      List<String> accounts = new ArrayList<>();
      for (int i = 0; i < ACCOUNTS; i++) {
        accounts.add("account-" + i);
        client.submit(AccountIntent.CREATE, new AccountValue("account-" + i, 0));
        client.submit(DepositIntent.DEPOSIT, new DepositValue("account-" + i, OPENING_DEPOSIT));
      }
      client.drain();
      assertThat(partition.responses()).hasSize(2 * ACCOUNTS);

      // when transfers stream in while the leader is cut off, again and again: each round cuts
      // off the processing leader a third of the way in and heals once another member processes
      for (int round = 0; round < ROUNDS; round++) {
        RaftLedgerPartition.Member isolated = null;
        boolean healed = false;
        for (int step = 0;
            step < MAX_STEPS_PER_ROUND && !(healed && step >= STEPS_PER_ROUND);
            step++) {
          for (int n = random.nextInt(3); n > 0; n--) {
            String from = accounts.get(random.nextInt(ACCOUNTS));
            String to = accounts.get(random.nextInt(ACCOUNTS));
            client.submit(
                TransferIntent.CREATE,
                new TransferValue(
                    from,
                    to,
                    1 + random.nextInt(300),
                    ValueDescriptor.NO_PARTITION_ID,
                    ValueDescriptor.NO_PARTITION_ID));
          }
          RaftLedgerPartition.Member leader = partition.leader();
          if (isolated == null && step >= STEPS_PER_ROUND / 3 && leader != null) {
            isolated = leader;
            partition.raft().network().isolate(leader.id());
          } else if (!healed
              && step >= 2 * STEPS_PER_ROUND / 3
              && leader != null
              && leader != isolated) {
            partition.raft().network().heal();
            healed = true;
          }
          client.flush();
          partition.run(Duration.ofMillis(5 + random.nextInt(10)));
        }
        assertThat(healed).as("a new leader took over in round %d", round).isTrue();
      }
      partition.raft().network().heal();
      client.drain();
      long position = settle(partition);

      // then: leadership changed hands
      int leaderTerms =
          partition.members().stream().mapToInt(RaftLedgerPartition.Member::leaderTerms).sum();
      assertThat(leaderTerms).as("processing leader terms").isGreaterThanOrEqualTo(ROUNDS + 1);

      // every member has the same committed log, position, digest and ledger
      RaftLedgerPartition.Member leader = partition.awaitLeader();
      List<Record> log = leader.committedRecords();
      for (RaftLedgerPartition.Member member : partition.members()) {
        assertThat(member.committedRecords()).as("log of member %d", member.id()).isEqualTo(log);
        assertThat(member.processor().lastProcessedPosition())
            .as("processed position of member %d", member.id())
            .isEqualTo(position);
        assertThat(member.stateDigest())
            .as("digest of member %d", member.id())
            .isEqualTo(leader.stateDigest());
        assertThat(member.state().balances()).isEqualTo(leader.state().balances());
      }

      // every committed command was processed exactly once
      Map<Long, List<Record>> followUps = new HashMap<>();
      for (Record record : log) {
        if (record.metadata().sourcePosition() != RecordMetadata.NO_POSITION) {
          followUps
              .computeIfAbsent(record.metadata().sourcePosition(), p -> new ArrayList<>())
              .add(record);
        }
      }
      Map<Long, Long> positionByRequest = new HashMap<>();
      int transfers = 0;
      for (Record record : log) {
        RecordMetadata metadata = record.metadata();
        if (metadata.recordType() != RecordType.COMMAND
            || metadata.sourcePosition() != RecordMetadata.NO_POSITION) {
          continue;
        }
        assertThat(positionByRequest.put(metadata.requestId(), record.position()))
            .as("request %d written once", metadata.requestId())
            .isNull();
        List<Record> outcome = followUps.getOrDefault(record.position(), List.of());
        if (metadata.intent() == TransferIntent.CREATE) {
          transfers++;
          assertThat(outcome)
              .as("outcome of the transfer at %d", record.position())
              .satisfiesAnyOf(
                  o ->
                      assertThat(o)
                          .extracting(r -> r.metadata().intent())
                          .containsExactly(TransferIntent.DEBITED, TransferIntent.COMPLETED),
                  o ->
                      assertThat(o)
                          .singleElement()
                          .satisfies(
                              r ->
                                  assertThat(r.metadata().recordType())
                                      .isEqualTo(RecordType.REJECTION)));
        } else {
          assertThat(outcome).as("outcome of the command at %d", record.position()).hasSize(1);
        }
      }
      assertThat(transfers).isGreaterThan(ROUNDS * STEPS_PER_ROUND / 2);

      // every answered command is in the log (answered at its position, once committed) and one
      // of its follow-ups there is the answer it got — also when a leader change dropped the
      // first leader's batch and the next leader processed the command again
      Map<Long, List<Record>> followUpsBySource = new HashMap<>();
      log.forEach(
          r -> {
            if (r.metadata().recordType() != RecordType.COMMAND) {
              followUpsBySource
                  .computeIfAbsent(r.metadata().sourcePosition(), k -> new ArrayList<>())
                  .add(r);
            }
          });
      assertThat(partition.responses()).hasSizeGreaterThan(transfers / 2);
      for (RaftLedgerPartition.Response response : partition.responses()) {
        Record answer = response.record();
        assertThat(answer.position()).isEqualTo(positionByRequest.get(response.requestId()));
        assertThat(followUpsBySource.getOrDefault(answer.position(), List.of()))
            .as("follow-ups of the answered command at %d", answer.position())
            .anySatisfy(
                written -> {
                  assertThat(written.metadata().intent()).isEqualTo(answer.metadata().intent());
                  assertThat(written.metadata().recordType())
                      .isEqualTo(answer.metadata().recordType());
                  assertThat(written.value()).isEqualTo(answer.value());
                });
      }

      // and no money was made or lost
      LedgerInvariants.Totals totals =
          LedgerInvariants.assertConserved(List.of(leader.state()), List.of(log), "seed " + seed);
      assertThat(totals.deposited()).isEqualTo(ACCOUNTS * OPENING_DEPOSIT);
    }
  }

  /** Runs until every member processed up to the same position; returns it. */
  private static long settle(RaftLedgerPartition partition) {
    for (int i = 0; i < 200; i++) {
      partition.run(Duration.ofMillis(50));
      RaftLedgerPartition.Member leader = partition.leader();
      if (leader == null) {
        continue;
      }
      long position = leader.processor().lastProcessedPosition();
      long commit = leader.raft().stream.commitPosition();
      boolean caughtUp =
          partition.members().stream()
              .allMatch(
                  m ->
                      m.processor().lastProcessedPosition() == position
                          && m.processor().lastWrittenPosition() == commit);
      if (caughtUp && leader.processor().lastWrittenPosition() == commit) {
        return position;
      }
    }
    throw new AssertionError("Expected every member to catch up within 10 s, but they did not");
  }

  /** Writes commands to whichever member leads, each once it is taken. */
  private static final class Client {
    private final RaftLedgerPartition partition;
    private final Deque<Record> queue = new ArrayDeque<>();
    private long nextRequestId = 1;

    Client(RaftLedgerPartition partition) {
      this.partition = partition;
    }

    void submit(Intent intent, RecordValue value) {
      queue.add(
          new Record(
              RecordMetadata.builder()
                  .command(intent)
                  .requestId(nextRequestId++)
                  .requestStreamId(1)
                  .build(),
              value));
    }

    void flush() {
      RaftLedgerPartition.Member leader = partition.leader();
      if (leader == null) {
        return;
      }
      while (!queue.isEmpty()) {
        WriteResult result = leader.raft().stream.writer().tryWrite(queue.peek());
        if (!result.isWritten()) {
          return;
        }
        queue.poll();
      }
    }

    /** Flushes until every command was written, and runs a little. */
    void drain() {
      for (int i = 0; i < 1_000 && !queue.isEmpty(); i++) {
        flush();
        partition.run(Duration.ofMillis(10));
      }
      partition.run(Duration.ofMillis(500));
      if (!queue.isEmpty()) {
        throw new AssertionError(
            "Expected every command to be written, but " + queue.size() + " wait");
      }
    }
  }
}
