package io.cairn.broker;

import io.cairn.backuptestkit.FaultyObjectLayer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The faults {@link ClusterSimulationTest} puts on a {@link SimulatedCluster}, each noted with the
 * simulated time it began: nodes crashed, powered off and started again, a node isolated, one link
 * cut, the network healed, the store failing, and now and then a journal disk that fills up or
 * fails its fsyncs. Seeded: it draws from the run's dice, in the order the run asks, and the disk
 * faults from dice of their own.
 */
final class ClusterNemesis {

  private final SimulatedCluster cluster;
  private final SplittableRandom random;

  /** The disk faults' own dice, so that they leave the other choices of a seed as they were. */
  private final SplittableRandom diskDice;

  private final List<String> noted = new ArrayList<>();

  /** The node whose journal disk is full or fails its fsyncs now, if one is. */
  private Integer failedDisk;

  ClusterNemesis(SimulatedCluster cluster, SplittableRandom random, long seed) {
    this.cluster = cluster;
    this.random = random;
    this.diskDice = new SplittableRandom(seed ^ 0xD15CL);
  }

  /** A network that delays every message 1–30 ms and drops or duplicates 1 % of them. */
  void startFlakyNetwork() {
    cluster
        .network
        .delay(Duration.ofMillis(1), Duration.ofMillis(30))
        .dropProbability(0.01)
        .duplicateProbability(0.01);
  }

  /** Notes {@code what} at the simulated time now. */
  void note(String what) {
    note(cluster.clock.millis(), what);
  }

  private void note(long at, String what) {
    noted.add(at + " " + what);
  }

  /** Crashes a running node, or cuts its power, while a majority would still run. */
  void crashOne() {
    List<Integer> up = cluster.nodeIds().stream().filter(cluster::isRunning).toList();
    if (up.size() == cluster.nodeIds().size()) {
      int node = up.get(random.nextInt(up.size()));
      if (random.nextBoolean()) {
        note("crash " + node);
        cluster.crash(node);
      } else {
        long at = cluster.clock.millis();
        note(at, "power loss " + node + " " + cluster.powerLoss(node, random.split()));
      }
    }
  }

  /** Starts the first node that is down, unless its disk still fails. */
  void restartOne() {
    for (int node : cluster.nodeIds()) {
      if (!cluster.isRunning(node) && cluster.disk(node).state() == SimulatedDisk.State.SOUND) {
        note("restart " + node);
        cluster.restart(node);
        return;
      }
    }
  }

  void isolateOne() {
    int node = random.nextInt(cluster.nodeIds().size());
    note("isolate " + node);
    cluster.network.isolate(node);
  }

  /** Cuts one link only: the nodes on either side still reach the third. */
  void cutOneLink() {
    int nodes = cluster.nodeIds().size();
    int a = random.nextInt(nodes);
    int b = (a + 1 + random.nextInt(nodes - 1)) % nodes;
    note("cut " + a + "-" + b);
    cluster.network.partition(a, b);
  }

  void heal() {
    note("heal");
    cluster.network.heal();
  }

  /**
   * Turns the store's faults on (a quarter of its calls fail, every way, and one in eight is slow)
   * or off.
   */
  void storeFaults() {
    boolean on = random.nextBoolean();
    note("store faults " + (on ? "on" : "off"));
    cluster.storeFaults(
        on
            ? FaultyObjectLayer.FaultPlan.storeFailures(random.split(), 16)
            : FaultyObjectLayer.FaultPlan.NONE);
    cluster.slowStore(on);
  }

  /**
   * Now and then the journal disk of a running node fills up or starts failing its fsyncs; its raft
   * members fail (fail-stop: a journal that cannot write or force is not retried). Some steps later
   * the node is stopped as a power loss would stop it and gets a sound disk.
   */
  void diskFaults() {
    if (failedDisk != null) {
      if (diskDice.nextInt(100) < 10) {
        replaceFailedDisk();
      }
      return;
    }
    List<Integer> up = cluster.nodeIds().stream().filter(cluster::isRunning).toList();
    if (up.size() == cluster.nodeIds().size() && diskDice.nextInt(100) < 2) {
      int node = up.get(diskDice.nextInt(up.size()));
      SimulatedDisk.State state =
          diskDice.nextBoolean() ? SimulatedDisk.State.FULL : SimulatedDisk.State.FAILING_FSYNC;
      note("disk " + state + " " + node);
      cluster.disk(node).state(state);
      failedDisk = node;
    }
  }

  private void replaceFailedDisk() {
    int node = failedDisk;
    failedDisk = null;
    if (cluster.isRunning(node)) {
      note("disk replaced " + node + " " + cluster.replaceDisk(node, diskDice.split()));
    } else {
      note("disk replaced " + node + " (crashed before)");
      cluster.disk(node).state(SimulatedDisk.State.SOUND);
    }
  }

  /** Stops every fault and starts every node that is down. */
  void stop() {
    cluster.network.heal();
    cluster.network.dropProbability(0).duplicateProbability(0);
    cluster.storeFaults(FaultyObjectLayer.FaultPlan.NONE);
    cluster.slowStore(false);
    if (failedDisk != null) {
      replaceFailedDisk();
    }
    for (int node : cluster.nodeIds()) {
      if (!cluster.isRunning(node)) {
        cluster.restart(node);
      }
    }
  }

  /** How many journal disk calls failed, on every node. */
  int diskFailures() {
    return cluster.nodeIds().stream().mapToInt(node -> cluster.disk(node).failures()).sum();
  }

  /** Every fault noted so far, in order. */
  @Override
  public String toString() {
    return noted.toString();
  }
}
