package io.cairn.engine;

import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.Record;
import io.cairn.scheduler.DeterministicScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The inter-partition transport of a simulation: every command sent through one of its {@link
 * #sender senders} is delivered to the target partition's {@link InterPartitionReceiver} as a plain
 * task on a {@link DeterministicScheduler}, after a random delay (so deliveries reorder), and may
 * be dropped or duplicated. A partition that is {@linkplain #disconnect disconnected} or not
 * {@linkplain #register registered} loses what is sent to it; a receiver that refuses (not leader,
 * backpressure) loses it too. One {@link Random} seeded with the given seed draws every fault in
 * send order, so a run is reproducible.
 *
 * <p>It also checks the sender's contract: the command's metadata carries the checkpoint id passed
 * along ({@link AssertionError} otherwise). Use it from the scheduler's thread only.
 */
public final class InMemoryInterPartitionChannel {

  /** A command handed to a receiver. */
  public record Delivery(
      int sourcePartitionId, int targetPartitionId, Record command, WriteResult result) {}

  private final DeterministicScheduler scheduler;
  private final Random random;
  private final long seed;
  private final Map<Integer, InterPartitionReceiver> receivers = new HashMap<>();
  private final Set<Integer> disconnected = new HashSet<>();
  private final List<Consumer<Delivery>> listeners = new ArrayList<>();
  private UnaryOperator<Record> rewriter = UnaryOperator.identity();
  private long delayMinMillis = 1;
  private long delayMaxMillis = 5;
  private double dropProbability;
  private double duplicateProbability;
  private long sent;
  private long delivered;
  private long dropped;
  private long duplicated;

  public InMemoryInterPartitionChannel(DeterministicScheduler scheduler, long seed) {
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.seed = seed;
    this.random = new Random(seed);
  }

  public long seed() {
    return seed;
  }

  /** Delays are drawn uniformly from [min, max]. */
  public InMemoryInterPartitionChannel delay(Duration min, Duration max) {
    if (min.isNegative() || max.compareTo(min) < 0) {
      throw new IllegalArgumentException(
          "Expected 0 <= min <= max, but was [" + min + ", " + max + "]");
    }
    delayMinMillis = min.toMillis();
    delayMaxMillis = max.toMillis();
    return this;
  }

  public InMemoryInterPartitionChannel dropProbability(double probability) {
    dropProbability = probability;
    return this;
  }

  public InMemoryInterPartitionChannel duplicateProbability(double probability) {
    duplicateProbability = probability;
    return this;
  }

  /** Lets {@code receiver} take the commands sent to its partition from now on. */
  public void register(InterPartitionReceiver receiver) {
    receivers.put(receiver.partitionId(), receiver);
  }

  /** The partition's commands are lost until it registers again (its leader is gone). */
  public void unregister(int partitionId) {
    receivers.remove(partitionId);
  }

  /** Everything sent to or from {@code partitionId} is lost until {@link #heal()}. */
  public void disconnect(int partitionId) {
    disconnected.add(partitionId);
  }

  /** Undoes {@link #disconnect(int)} for {@code partitionId}. */
  public void reconnect(int partitionId) {
    disconnected.remove(partitionId);
  }

  /** No more drops, duplicates or disconnections (delays and reordering stay). */
  public void heal() {
    dropProbability = 0;
    duplicateProbability = 0;
    disconnected.clear();
  }

  /**
   * Passes every command sent from now on through {@code value} before anything else happens to it;
   * a null result drops the command (counted as dropped). For tests that take a step of the
   * protocol away, for example the refunds, to show what the invariants then report.
   */
  public InMemoryInterPartitionChannel rewrite(UnaryOperator<Record> value) {
    rewriter = Objects.requireNonNull(value, "value");
    return this;
  }

  /** Tells {@code listener} of every delivery attempt. */
  public void onDelivery(Consumer<Delivery> listener) {
    listeners.add(listener);
  }

  /** The sender of partition {@code sourcePartitionId}. */
  public InterPartitionSender sender(int sourcePartitionId) {
    return (target, command, checkpointId) ->
        send(sourcePartitionId, target, command, checkpointId);
  }

  public long sentCount() {
    return sent;
  }

  public long deliveredCount() {
    return delivered;
  }

  public long droppedCount() {
    return dropped;
  }

  public long duplicatedCount() {
    return duplicated;
  }

  private void send(int source, int target, Record command, long checkpointId) {
    if (command.metadata().checkpointId() != checkpointId) {
      throw new AssertionError(
          "Expected the command to carry the checkpoint id "
              + checkpointId
              + " passed to send, but it carries "
              + command.metadata().checkpointId());
    }
    sent++;
    Record rewritten = rewriter.apply(command);
    if (rewritten == null
        || disconnected.contains(source)
        || random.nextDouble() < dropProbability) {
      dropped++;
      return;
    }
    schedule(source, target, rewritten);
    if (random.nextDouble() < duplicateProbability) {
      duplicated++;
      schedule(source, target, rewritten);
    }
  }

  private void schedule(int source, int target, Record command) {
    long delay =
        delayMinMillis + (long) (random.nextDouble() * (delayMaxMillis - delayMinMillis + 1));
    scheduler.schedule(Duration.ofMillis(delay), () -> deliver(source, target, command));
  }

  private void deliver(int source, int target, Record command) {
    InterPartitionReceiver receiver = receivers.get(target);
    if (receiver == null || disconnected.contains(target) || disconnected.contains(source)) {
      dropped++;
      return;
    }
    WriteResult result = receiver.receive(command);
    if (result.isWritten()) {
      delivered++;
    } else {
      dropped++;
    }
    for (Consumer<Delivery> listener : listeners) {
      listener.accept(new Delivery(source, target, command, result));
    }
  }
}
