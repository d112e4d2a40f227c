package io.cairn.gateway;

import io.cairn.config.ConfigException;
import io.cairn.config.ConfigFileArgument;
import io.cairn.gateway.config.EffectiveGatewayConfig;
import io.cairn.gateway.config.GatewayConfigReader;
import io.cairn.scheduler.Clock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs one gateway: {@code java io.cairn.gateway.GatewayMain --config gateway.yaml}. Every key of
 * the file can be overridden by a {@code CAIRN_GATEWAY_*} environment variable (see {@link
 * io.cairn.gateway.config.GatewayConfigKeys}). The effective configuration is logged once at start.
 * SIGTERM (or Ctrl-C) closes the gateway gracefully through a shutdown hook; the JVM then exits
 * with 143.
 *
 * <p>Exit codes: 1 when the gateway failed to start (a port in use), 2 for a bad command line or
 * configuration (every problem listed on stderr).
 */
public final class GatewayMain {
  /** The gateway failed to start. */
  public static final int EXIT_FAILED = 1;

  /** Bad command line or configuration. */
  public static final int EXIT_USAGE = 2;

  /** The MDC key of the node id (the broker's too). */
  public static final String MDC_NODE_ID = "nodeId";

  private static final String USAGE =
      "Usage: GatewayMain --config <gateway.yaml>\n"
          + "  Every key can be overridden by an environment variable: CAIRN_ and the key's path\n"
          + "  upper-cased with '_' for '.', e.g. CAIRN_GATEWAY_GRPC_PORT=26500 for"
          + " gateway.grpc.port.";

  private GatewayMain() {}

  public static void main(String[] args) {
    int code = run(args, System.getenv(), System.err);
    if (code != 0) {
      System.exit(code);
    }
  }

  /**
   * Runs a gateway until the JVM shuts down (or this thread is interrupted); returns the exit code:
   * 0 after a shutdown, {@link #EXIT_FAILED} or {@link #EXIT_USAGE} when it did not start.
   */
  public static int run(String[] args, Map<String, String> env, PrintStream err) {
    Optional<Path> argument = ConfigFileArgument.parse(args, USAGE, err);
    if (argument.isEmpty()) {
      return EXIT_USAGE;
    }
    Path file = argument.get();
    EffectiveGatewayConfig effective;
    try {
      effective = GatewayConfigReader.read(file, env);
    } catch (ConfigException e) {
      err.println(e.getMessage());
      return EXIT_USAGE;
    }
    GatewayConfig config = effective.config();
    MDC.put(MDC_NODE_ID, Integer.toString(config.nodeId()));
    Logger log = LoggerFactory.getLogger(GatewayMain.class);
    log.info("Gateway {} configuration ({}):{}", config.nodeId(), file, effective.describe());
    Gateway gateway;
    try {
      gateway =
          new Gateway(
              config, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), Clock.system());
    } catch (RuntimeException e) {
      log.error("Gateway {} failed to start", config.nodeId(), e);
      err.println("Expected the gateway to start, but " + e.getMessage());
      return EXIT_FAILED;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              MDC.put(MDC_NODE_ID, Integer.toString(config.nodeId()));
              gateway.close();
              stopped.countDown();
            },
            "cairn-gateway-shutdown-" + config.nodeId());
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      gateway.start();
    } catch (RuntimeException e) {
      log.error("Gateway {} failed to start", config.nodeId(), e);
      err.println("Expected the gateway to start, but " + e.getMessage());
      Runtime.getRuntime().removeShutdownHook(hook);
      gateway.close();
      return EXIT_FAILED;
    }
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      Runtime.getRuntime().removeShutdownHook(hook);
      gateway.close();
    }
    return 0;
  }
}
