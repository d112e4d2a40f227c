package io.cairn.broker;

import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.config.BrokerConfigException;
import io.cairn.broker.config.BrokerConfigReader;
import io.cairn.broker.node.NodeDescriptorMismatchException;
import io.cairn.config.ConfigFileArgument;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs one broker: {@code java io.cairn.broker.BrokerMain --config broker.yaml}. Every key of the
 * file can be overridden by a {@code CAIRN_*} environment variable (see the README). SIGTERM (or
 * Ctrl-C) shuts the broker down gracefully through a shutdown hook.
 *
 * <p>Exit codes: 1 when the broker failed to start, 2 for a bad command line or configuration, 3
 * when the data directory belongs to another node, cluster or partition count; after SIGTERM the
 * JVM exits with 143 once the graceful shutdown finished.
 */
public final class BrokerMain {

  static final int EXIT_FAILED = 1;
  static final int EXIT_USAGE = 2;
  static final int EXIT_DATA_DIRECTORY = 3;

  private static final String USAGE =
      "Usage: BrokerMain --config <file.yaml>\n"
          + "  Every key can be overridden by an environment variable: CAIRN_ and the key's path\n"
          + "  upper-cased with '_' for '.', e.g. CAIRN_CLUSTER_NODEID=2 for cluster.nodeId.";

  private BrokerMain() {}

  public static void main(String[] args) {
    int code = run(args, System.getenv(), System.err);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** Runs until the broker is shut down; returns the exit code. */
  static int run(String[] args, Map<String, String> env, PrintStream err) {
    Optional<Path> argument = ConfigFileArgument.parse(args, USAGE, err);
    if (argument.isEmpty()) {
      return EXIT_USAGE;
    }
    Path configFile = argument.get();
    BrokerConfig config;
    try {
      config = BrokerConfigReader.read(configFile, env);
    } catch (BrokerConfigException e) {
      err.println(e.getMessage());
      return EXIT_USAGE;
    }
    MDC.put(BrokerThreads.MDC_NODE_ID, Integer.toString(config.cluster().nodeId()));
    Logger log = LoggerFactory.getLogger(BrokerMain.class);
    Broker broker;
    try {
      broker = Broker.open(config);
    } catch (NodeDescriptorMismatchException e) {
      log.error("Refusing to start: {}", e.getMessage());
      err.println(e.getMessage());
      return EXIT_DATA_DIRECTORY;
    } catch (RuntimeException e) {
      log.error("Node {} failed to open", config.cluster().nodeId(), e);
      return EXIT_FAILED;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  MDC.put(BrokerThreads.MDC_NODE_ID, Integer.toString(broker.nodeId()));
                  broker.close();
                  stopped.countDown();
                },
                "cairn-node-" + broker.nodeId() + "-shutdown"));
    try {
      broker.start();
    } catch (BackupStoreOpenException e) {
      if (broker.isStopRequested()) {
        // stopped while the start waited for the store: the shutdown hook closes and exits
        log.info("Node {} stopped while starting: {}", broker.nodeId(), e.getMessage());
        return EXIT_FAILED;
      }
      // the message says what to fix; the trace helps only a developer
      log.error("Node {} failed to start: {}", broker.nodeId(), e.getMessage());
      log.debug("Node {}: the backup store's failure", broker.nodeId(), e);
      err.println(e.getMessage());
      return EXIT_FAILED;
    } catch (RuntimeException e) {
      log.error("Node {} failed to start", broker.nodeId(), e);
      return EXIT_FAILED;
    }
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      broker.close();
    }
    return 0;
  }
}
