package io.cairn.dist;

import static org.awaitility.Awaitility.await;

import io.cairn.backups3.testserver.FaultInjectingProxy;
import io.cairn.backups3.testserver.FaultInjectingProxy.Fault;
import io.cairn.qa.network.ProxyNetwork;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The faults of a history test, one at a time, chosen from a seed and noted in the history: a
 * broker killed with {@code kill -9} and started again, a broker paused with {@code SIGSTOP} and
 * continued, a broker cut from its peers (the gateway still reaching it) or from everyone, the S3
 * server failing, slow or losing answers (through a fault proxy, when the store is S3), and once
 * per run every broker killed at once and the whole cluster started again. Between two faults the
 * cluster gets back to a leader for every partition, so that a minority is faulty at any time
 * (except for the whole-cluster restart).
 *
 * <p>The choices repeat with the seed; how the cluster answers them depends on timing.
 */
final class Nemesis {

  /** A kind of fault. */
  enum Kind {
    KILL,
    PAUSE,
    CUT_FROM_PEERS,
    ISOLATE,
    STORE_FAULTS,
    RESTART_ALL
  }

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  private final ClusterProcesses cluster;
  private final ProxyNetwork network;
  private final LedgerHistory history;
  private final Optional<FaultInjectingProxy> store;
  private final List<Kind> choices = new ArrayList<>();
  private final SplittableRandom random;
  private final List<Kind> injected = new ArrayList<>();

  /**
   * @param store the fault proxy in front of the S3 server, or empty for a store without one
   */
  Nemesis(
      ClusterProcesses cluster,
      ProxyNetwork network,
      Optional<FaultInjectingProxy> store,
      LedgerHistory history,
      long seed) {
    this.cluster = cluster;
    this.network = network;
    this.store = store;
    this.history = history;
    this.random = new SplittableRandom(seed);
    choices.addAll(List.of(Kind.KILL, Kind.PAUSE, Kind.CUT_FROM_PEERS, Kind.ISOLATE));
    store.ifPresent(proxy -> choices.add(Kind.STORE_FAULTS));
  }

  /**
   * Injects faults until {@code duration} has passed, the whole-cluster restart once at about the
   * middle; returns with every fault healed and the cluster ready.
   */
  void run(Duration duration) throws Exception {
    long end = System.currentTimeMillis() + duration.toMillis();
    long restartAllAt = System.currentTimeMillis() + duration.toMillis() / 2;
    boolean restartedAll = false;
    while (System.currentTimeMillis() < end) {
      Thread.sleep(1_000 + random.nextInt(3_000));
      Kind fault;
      if (!restartedAll && System.currentTimeMillis() >= restartAllAt) {
        fault = Kind.RESTART_ALL;
        restartedAll = true;
      } else {
        fault = choices.get(random.nextInt(choices.size()));
      }
      inject(fault, random.nextInt(ClusterProcesses.BROKERS), 2_000 + random.nextInt(4_000));
      injected.add(fault);
    }
  }

  /** The faults injected, in order. */
  List<Kind> injected() {
    return List.copyOf(injected);
  }

  private void inject(Kind fault, int broker, long holdMillis) throws Exception {
    history.note("nemesis", "start " + fault + " broker-" + broker + " for " + holdMillis + " ms");
    switch (fault) {
      case KILL -> {
        cluster.killBroker(broker);
        Thread.sleep(holdMillis);
        cluster.startBroker(broker);
      }
      case PAUSE -> {
        cluster.pauseBroker(broker);
        try {
          Thread.sleep(holdMillis);
        } finally {
          cluster.resumeBroker(broker);
        }
      }
      case CUT_FROM_PEERS -> {
        for (int peer = 0; peer < ClusterProcesses.BROKERS; peer++) {
          if (peer != broker) {
            network.partition(broker, peer);
          }
        }
        Thread.sleep(holdMillis);
        network.heal();
      }
      case ISOLATE -> {
        network.isolate(broker);
        Thread.sleep(holdMillis);
        network.rejoin(broker);
      }
      case STORE_FAULTS -> {
        FaultInjectingProxy proxy = store.orElseThrow();
        SplittableRandom requests = random.split();
        proxy.plan(
            request -> {
              synchronized (requests) {
                return storeFault(requests.nextInt(10));
              }
            });
        Thread.sleep(holdMillis * 2);
        proxy.plan(FaultInjectingProxy.FaultPlan.NONE);
      }
      case RESTART_ALL -> {
        for (int node = 0; node < ClusterProcesses.BROKERS; node++) {
          cluster.killBroker(node);
        }
        Thread.sleep(holdMillis);
        for (int node = 0; node < ClusterProcesses.BROKERS; node++) {
          cluster.startBroker(node);
        }
      }
    }
    history.note("nemesis", "healed " + fault + " broker-" + broker);
    awaitReady();
  }

  /** Half of the requests to the S3 server fail while the store is faulty, in four ways. */
  private static Fault storeFault(int dice) {
    return switch (dice) {
      case 0, 1 -> Fault.ANSWER_503;
      case 2 -> Fault.ANSWER_500;
      case 3 -> Fault.DROP_RESPONSE; // the server did it; the broker does not know
      case 4 -> Fault.SLOW_RESPONSE;
      default -> Fault.NONE;
    };
  }

  private void awaitReady() {
    long start = System.currentTimeMillis();
    await("a leader for every partition after a fault")
        .atMost(READY_TIMEOUT)
        .pollInterval(Duration.ofMillis(250))
        .until(cluster::gatewayReady);
    history.note("nemesis", "ready after " + (System.currentTimeMillis() - start) + " ms");
  }
}
