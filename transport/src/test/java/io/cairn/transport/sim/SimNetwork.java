package io.cairn.transport.sim;

import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.transport.TransportConfig;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A simulated network of {@link SimMessagingService} endpoints, one per node id, delivering every
 * frame as a plain task on a {@link DeterministicScheduler} after a random delay. Faults are set by
 * the test: drop and duplicate probabilities, reordering through the random delays, partitions,
 * isolation, and crash/restart of endpoints.
 *
 * <p>Fully deterministic: one {@link Random} seeded with the given seed draws every delay and
 * fault, in the order frames are sent, and time is the scheduler's {@code SimClock}. The same seed
 * and the same test steps give the same deliveries in the same order.
 *
 * <p>Rules: a frame is lost when its link is cut when it is sent or when it arrives, when the draw
 * says drop, or when its target crashed, closed or restarted since it was sent (a restarted
 * endpoint is a new process). A node is always connected to itself. Use it from the scheduler's
 * thread only.
 */
public final class SimNetwork {

  public static final Duration DEFAULT_DELAY_MIN = Duration.ofMillis(1);
  public static final Duration DEFAULT_DELAY_MAX = Duration.ofMillis(5);

  /** What a frame carries. */
  public enum Kind {
    REQUEST,
    RESPONSE,
    MESSAGE
  }

  /**
   * A frame handed to its target.
   *
   * @param timeNanos the simulated time of delivery
   * @param from sender node id
   * @param to target node id
   * @param kind request, response or message
   * @param type message type (the request's type for responses)
   * @param requestId the request's id at the requester; 0 for messages
   */
  public record Delivery(
      long timeNanos, int from, int to, Kind kind, String type, long requestId) {}

  /** A frame in flight. */
  record Envelope(
      Kind kind,
      SimMessagingService sender,
      SimMessagingService target,
      long requestId,
      String type,
      SimMessagingService.Status status,
      byte[] payload) {}

  private final DeterministicScheduler scheduler;
  private final long seed;
  private final Random random;
  private final Map<Integer, SimMessagingService> endpoints = new TreeMap<>();
  private final Set<Long> cutLinks = new HashSet<>();
  private final Set<Integer> isolated = new HashSet<>();
  private long delayMinNanos = DEFAULT_DELAY_MIN.toNanos();
  private long delayMaxNanos = DEFAULT_DELAY_MAX.toNanos();
  private double dropProbability;
  private double duplicateProbability;
  private int maxFrameSizeBytes = TransportConfig.DEFAULT_MAX_FRAME_SIZE_BYTES;
  private Consumer<Delivery> deliveryListener = delivery -> {};
  private long sentCount;
  private long deliveredCount;
  private long droppedCount;
  private long duplicatedCount;

  public SimNetwork(DeterministicScheduler scheduler, long seed) {
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.seed = seed;
    this.random = new Random(seed);
  }

  public long seed() {
    return seed;
  }

  public DeterministicScheduler scheduler() {
    return scheduler;
  }

  /** The current endpoint of {@code nodeId}, created (open) on first use. */
  public SimMessagingService endpoint(int nodeId) {
    if (nodeId < 0) {
      throw new IllegalArgumentException("Expected a node id >= 0, but was " + nodeId);
    }
    return endpoints.computeIfAbsent(nodeId, id -> new SimMessagingService(this, id));
  }

  /** Node ids that have an endpoint (open or not): the members requests may be sent to. */
  public Set<Integer> members() {
    return Set.copyOf(endpoints.keySet());
  }

  /** Every frame takes a delay drawn uniformly from [min, max]; different delays reorder. */
  public SimNetwork delay(Duration min, Duration max) {
    if (min.isNegative() || max.compareTo(min) < 0) {
      throw new IllegalArgumentException(
          "Expected 0 <= delay min <= delay max, but was [" + min + ", " + max + "]");
    }
    delayMinNanos = min.toNanos();
    delayMaxNanos = max.toNanos();
    return this;
  }

  /** Probability that a frame is lost, in [0, 1]. */
  public SimNetwork dropProbability(double probability) {
    dropProbability = checkProbability("dropProbability", probability);
    return this;
  }

  /** Probability that a frame is delivered twice (each copy with its own delay), in [0, 1]. */
  public SimNetwork duplicateProbability(double probability) {
    duplicateProbability = checkProbability("duplicateProbability", probability);
    return this;
  }

  /** Largest frame, header included, the endpoints send (the netty maxFrameSizeBytes). */
  public SimNetwork maxFrameSizeBytes(int bytes) {
    if (bytes < TransportConfig.MIN_MAX_FRAME_SIZE_BYTES
        || bytes > TransportConfig.MAX_MAX_FRAME_SIZE_BYTES) {
      throw new IllegalArgumentException(
          "Expected maxFrameSizeBytes in ["
              + TransportConfig.MIN_MAX_FRAME_SIZE_BYTES
              + ", "
              + TransportConfig.MAX_MAX_FRAME_SIZE_BYTES
              + "], but was "
              + bytes);
    }
    maxFrameSizeBytes = bytes;
    return this;
  }

  public int maxFrameSizeBytes() {
    return maxFrameSizeBytes;
  }

  /** Called on every delivery, before the target handles the frame (for traces and checks). */
  public SimNetwork onDelivery(Consumer<Delivery> listener) {
    deliveryListener = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /** Cuts the link between {@code a} and {@code b} in both directions. */
  public void partition(int a, int b) {
    if (a != b) {
      cutLinks.add(linkKey(a, b));
    }
  }

  /** Cuts every link of {@code nodeId} (to itself excepted). */
  public void isolate(int nodeId) {
    isolated.add(nodeId);
  }

  /** Restores every link cut by {@link #partition} or {@link #isolate}. */
  public void heal() {
    cutLinks.clear();
    isolated.clear();
  }

  /** True if frames between {@code a} and {@code b} currently get through (faults aside). */
  public boolean isConnected(int a, int b) {
    if (a == b) {
      return true;
    }
    return !isolated.contains(a) && !isolated.contains(b) && !cutLinks.contains(linkKey(a, b));
  }

  /**
   * Stops the endpoint of {@code nodeId} abruptly: its handlers are gone, frames to it are lost,
   * its pending requests fail with Unreachable and it refuses to send (Rejected).
   */
  public void crash(int nodeId) {
    SimMessagingService endpoint = endpoints.get(nodeId);
    if (endpoint != null) {
      endpoint.stop("crashed");
    }
  }

  /**
   * Replaces the endpoint of {@code nodeId} (crashing it first if open) by a new open one without
   * handlers, as a restarted process; frames sent to the old endpoint are never delivered to it.
   */
  public SimMessagingService restart(int nodeId) {
    crash(nodeId);
    SimMessagingService fresh = new SimMessagingService(this, nodeId);
    endpoints.put(nodeId, fresh);
    return fresh;
  }

  /** Frames handed to the network (duplicates not counted). */
  public long sentCount() {
    return sentCount;
  }

  public long deliveredCount() {
    return deliveredCount;
  }

  public long droppedCount() {
    return droppedCount;
  }

  public long duplicatedCount() {
    return duplicatedCount;
  }

  // ---- used by endpoints ----

  boolean isMember(int nodeId) {
    return endpoints.containsKey(nodeId);
  }

  /** The current endpoint of a member, or null. */
  SimMessagingService current(int nodeId) {
    return endpoints.get(nodeId);
  }

  void transmit(Envelope envelope) {
    sentCount++;
    boolean linkUp = isConnected(envelope.sender().localNodeId(), envelope.target().localNodeId());
    // Always draw the same numbers per frame so that faults do not shift later draws.
    boolean drop = random.nextDouble() < dropProbability;
    boolean duplicate = random.nextDouble() < duplicateProbability;
    long delayNanos = nextDelayNanos();
    long duplicateDelayNanos = nextDelayNanos();
    if (!linkUp || drop) {
      droppedCount++;
      return;
    }
    scheduler.schedule(Duration.ofNanos(delayNanos), () -> deliver(envelope));
    if (duplicate) {
      duplicatedCount++;
      scheduler.schedule(Duration.ofNanos(duplicateDelayNanos), () -> deliver(envelope));
    }
  }

  private void deliver(Envelope envelope) {
    SimMessagingService target = envelope.target();
    int from = envelope.sender().localNodeId();
    int to = target.localNodeId();
    if (endpoints.get(to) != target || !target.isOpen() || !isConnected(from, to)) {
      droppedCount++;
      return;
    }
    deliveredCount++;
    deliveryListener.accept(
        new Delivery(
            scheduler.clock().nanos(),
            from,
            to,
            envelope.kind(),
            envelope.type(),
            envelope.requestId()));
    target.receive(envelope);
  }

  private long nextDelayNanos() {
    long span = delayMaxNanos - delayMinNanos;
    if (span == 0) {
      return delayMinNanos;
    }
    long millisSpan = span / 1_000_000L;
    // Whole milliseconds when the span allows, so that ties (and their fixed order) happen too.
    if (millisSpan > 0 && span % 1_000_000L == 0) {
      return delayMinNanos + 1_000_000L * random.nextLong(millisSpan + 1);
    }
    return delayMinNanos + random.nextLong(span + 1);
  }

  private static long linkKey(int a, int b) {
    int low = Math.min(a, b);
    int high = Math.max(a, b);
    return ((long) low << 32) | (high & 0xffffffffL);
  }

  private static double checkProbability(String name, double probability) {
    if (!(probability >= 0.0 && probability <= 1.0)) {
      throw new IllegalArgumentException("Expected " + name + " in [0, 1], but was " + probability);
    }
    return probability;
  }

  @Override
  public String toString() {
    return "SimNetwork{seed="
        + seed
        + ", members="
        + endpoints.keySet()
        + ", sent="
        + sentCount
        + ", delivered="
        + deliveredCount
        + ", dropped="
        + droppedCount
        + ", duplicated="
        + duplicatedCount
        + '}';
  }
}
