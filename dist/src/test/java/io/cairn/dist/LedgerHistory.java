package io.cairn.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * What the clients of a history test did and what they were told, in the order it happened: each
 * operation is invoked, then completes as {@link Outcome#OK} (acknowledged), {@link Outcome#FAIL}
 * (refused: it had no effect) or {@link Outcome#INFO} (no definite answer: it may or may not have
 * taken effect). The nemesis's faults are noted between them. Thread-safe.
 *
 * <p>{@link #write} prints it one event per line, in the style of a Jepsen history, so that a
 * failing run can be read back: {@code 12.345 client-2 invoke transfer acc-1 -> acc-4 517}.
 */
final class LedgerHistory {

  /** What an operation does to the ledger. */
  enum Kind {
    DEPOSIT,
    TRANSFER
  }

  /** How an operation ended, as far as its client knows. */
  enum Outcome {
    OK,
    FAIL,
    INFO
  }

  /**
   * One operation.
   *
   * @param id its number in the history, from 0
   * @param client the client that ran it
   * @param kind deposit or transfer
   * @param from the debited account of a transfer, null for a deposit
   * @param to the credited account
   * @param amount the amount, above 0
   * @param outcome how it ended; INFO also when it never completed
   * @param detail the error of a FAIL or INFO, empty for OK
   * @param invokedMillis when it was invoked, since the history's start
   * @param completedMillis when it completed, since the history's start; {@code Long.MAX_VALUE}
   *     while it has not
   */
  record Operation(
      int id,
      int client,
      Kind kind,
      String from,
      String to,
      long amount,
      Outcome outcome,
      String detail,
      long invokedMillis,
      long completedMillis) {

    Operation(int id, int client, Kind kind, String from, String to, long amount, Outcome outcome) {
      this(id, client, kind, from, to, amount, outcome, "", 0, 0);
    }

    Operation withOutcome(Outcome value) {
      return new Operation(
          id, client, kind, from, to, amount, value, detail, invokedMillis, completedMillis);
    }

    /** What the operation adds to {@code account}'s balance when it takes effect. */
    long effectOn(String account) {
      long effect = 0;
      if (to.equals(account)) {
        effect += amount;
      }
      if (account.equals(from)) {
        effect -= amount;
      }
      return effect;
    }

    boolean touches(String account) {
      return to.equals(account) || account.equals(from);
    }

    @Override
    public String toString() {
      String what =
          kind == Kind.DEPOSIT
              ? "deposit " + amount + " to " + to
              : "transfer " + amount + " " + from + " -> " + to;
      return "#" + id + " (client-" + client + ") " + what + ": " + outcome;
    }
  }

  /**
   * An operation drawn for a client to run: deposits of 1,000 to 1,000,999, transfers of 1 to
   * 200,000 between two different accounts. Amounts from a wide range make a wrong balance almost
   * never explainable by chance ({@link LedgerHistoryChecker}).
   */
  record Draw(Kind kind, String from, String to, long amount) {

    static Draw next(SplittableRandom random, List<String> accounts, boolean deposit) {
      String to = accounts.get(random.nextInt(accounts.size()));
      if (deposit) {
        return new Draw(Kind.DEPOSIT, null, to, 1_000 + random.nextLong(1_000_000));
      }
      String from;
      do {
        from = accounts.get(random.nextInt(accounts.size()));
      } while (from.equals(to));
      return new Draw(Kind.TRANSFER, from, to, 1 + random.nextLong(200_000));
    }
  }

  private final LongSupplier clock;
  private final long startMillis;
  private final List<String> events = new ArrayList<>();
  private final List<Operation> operations = new ArrayList<>();
  private final Map<Long, long[]> backups = new TreeMap<>();

  /** A history that starts now, on the system clock. */
  LedgerHistory() {
    this(System::currentTimeMillis);
  }

  /**
   * @param clock milliseconds; the history's events are stamped relative to its value now
   */
  LedgerHistory(LongSupplier clock) {
    this.clock = clock;
    this.startMillis = clock.getAsLong();
  }

  /** Records the invocation of an operation; returns its id for {@link #complete}. */
  synchronized int invoke(int client, Kind kind, String from, String to, long amount) {
    if (amount <= 0 || to.equals(from)) {
      throw new IllegalArgumentException(
          "Expected an amount above 0 between two accounts, but got "
              + amount
              + " from "
              + from
              + " to "
              + to);
    }
    int id = operations.size();
    operations.add(
        new Operation(
            id, client, kind, from, to, amount, Outcome.INFO, "pending", now(), Long.MAX_VALUE));
    event("client-" + client, "invoke " + describe(kind, from, to, amount));
    return id;
  }

  /** Records how operation {@code id} ended. */
  synchronized void complete(int id, Outcome outcome, String detail) {
    Operation invoked = operations.get(id);
    if (!invoked.detail().equals("pending")) {
      throw new IllegalStateException("Expected operation " + id + " to be pending, but it ended");
    }
    operations.set(
        id,
        new Operation(
            id,
            invoked.client(),
            invoked.kind(),
            invoked.from(),
            invoked.to(),
            invoked.amount(),
            outcome,
            detail,
            invoked.invokedMillis(),
            now()));
    event(
        "client-" + invoked.client(),
        outcome.name().toLowerCase()
            + " "
            + describe(invoked.kind(), invoked.from(), invoked.to(), invoked.amount())
            + (detail.isEmpty() ? "" : " (" + detail + ")"));
  }

  /** The time since the history's start, to pass to {@link #backupTaken}. */
  long now() {
    return clock.getAsLong() - startMillis;
  }

  /**
   * Records that backup {@code backupId} was taken: its request was sent at {@code invokedMillis}
   * and acknowledged at {@code acknowledgedMillis} (every partition had written its checkpoint).
   */
  synchronized void backupTaken(long backupId, long invokedMillis, long acknowledgedMillis) {
    backups.put(backupId, new long[] {invokedMillis, acknowledgedMillis});
    event("backups", "took " + backupId + " in " + (acknowledgedMillis - invokedMillis) + " ms");
  }

  /** The backups whose taking was acknowledged, by id. */
  synchronized Set<Long> backupsTaken() {
    return Set.copyOf(backups.keySet());
  }

  /**
   * The history as a restore of backup {@code backupId} must show it: an operation acknowledged
   * before the backup was asked for is in it; one invoked after the backup was acknowledged is not
   * (left out); one that overlapped it may or may not be (unknown); a refused one is not.
   */
  synchronized List<Operation> asOfBackup(long backupId) {
    long[] taken = backups.get(backupId);
    if (taken == null) {
      throw new IllegalArgumentException("Expected a backup taken, but " + backupId + " was not");
    }
    List<Operation> cut = new ArrayList<>();
    for (Operation operation : operations) {
      if (operation.invokedMillis() > taken[1]) {
        continue;
      }
      boolean before = operation.outcome() == Outcome.OK && operation.completedMillis() < taken[0];
      cut.add(
          before || operation.outcome() == Outcome.FAIL
              ? operation
              : operation.withOutcome(Outcome.INFO));
    }
    return cut;
  }

  /** Notes something that is not an operation: a fault, a backup, a check. */
  synchronized void note(String who, String what) {
    event(who, what);
  }

  /** Every operation; one never completed counts as INFO. */
  synchronized List<Operation> operations() {
    return List.copyOf(operations);
  }

  synchronized void write(Path file) throws IOException {
    Files.write(file, events, StandardCharsets.UTF_8);
  }

  private void event(String who, String what) {
    long millis = now();
    events.add(String.format("%d.%03d %s %s", millis / 1000, millis % 1000, who, what));
  }

  private static String describe(Kind kind, String from, String to, long amount) {
    return kind == Kind.DEPOSIT
        ? "deposit " + to + " " + amount
        : "transfer " + from + " -> " + to + " " + amount;
  }
}
