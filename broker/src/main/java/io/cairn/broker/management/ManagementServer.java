package io.cairn.broker.management;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.cairn.broker.BrokerHealth;
import io.cairn.broker.partition.PartitionHealthStatus;
import io.cairn.broker.partition.PartitionRole;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The management HTTP endpoints of one broker (JDK {@code HttpServer}):
 *
 * <table>
 *   <caption>Endpoints (GET only; anything else 405, other paths 404)</caption>
 *   <tr><th>path</th><th>answer</th></tr>
 *   <tr><td>{@code /metrics}</td><td>every meter in the Prometheus text format</td></tr>
 *   <tr><td>{@code /health}</td><td>JSON: the broker's status and reason and every partition's
 *       role, term, status and reason; 200 unless the broker is FAILED (503)</td></tr>
 *   <tr><td>{@code /ready}</td><td>JSON {@code {"ready": ..., "reason": ...}}; 200 when the broker
 *       runs and every hosted partition has a role and is not FAILED, else 503</td></tr>
 * </table>
 */
public final class ManagementServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ManagementServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String JSON_TYPE = "application/json; charset=utf-8";

  private final HttpServer server;
  private final PrometheusMeterRegistry registry;
  private final Supplier<BrokerHealth> health;

  private ManagementServer(
      final HttpServer server,
      final PrometheusMeterRegistry registry,
      final Supplier<BrokerHealth> health) {
    this.server = server;
    this.registry = registry;
    this.health = health;
  }

  /**
   * Binds {@code host:port} (0 = ephemeral) and starts serving on {@code executor} (the caller owns
   * it and shuts it down after {@link #close()}).
   *
   * @throws UncheckedIOException naming the address if it cannot be bound
   */
  public static ManagementServer start(
      final String host,
      final int port,
      final PrometheusMeterRegistry registry,
      final Supplier<BrokerHealth> health,
      final ExecutorService executor) {
    final HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 16);
    } catch (final IOException e) {
      throw new UncheckedIOException(
          "Expected to bind the management server to "
              + host
              + ":"
              + port
              + ", but it failed. Free the port or change management.host/management.port",
          e);
    }
    final ManagementServer management =
        new ManagementServer(
            server, Objects.requireNonNull(registry), Objects.requireNonNull(health));
    server.createContext("/", management::handle);
    server.setExecutor(executor);
    server.start();
    LOG.info("Management server listening on {}", management.address());
    return management;
  }

  /** The bound address (with the real port when 0 was asked for). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  private void handle(final HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!"GET".equals(exchange.getRequestMethod())) {
        respond(exchange, 405, "text/plain; charset=utf-8", "Only GET is supported\n");
        return;
      }
      switch (exchange.getRequestURI().getPath()) {
        case "/metrics" ->
            respond(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape());
        case "/health" -> {
          final BrokerHealth current = health.get();
          respond(
              exchange,
              current.status() == PartitionHealthStatus.FAILED ? 503 : 200,
              JSON_TYPE,
              healthJson(current));
        }
        case "/ready" -> {
          final BrokerHealth current = health.get();
          final ObjectNode body = JSON.createObjectNode();
          body.put("nodeId", current.nodeId());
          body.put("ready", current.ready());
          body.put("reason", current.ready() ? "" : notReadyReason(current));
          respond(exchange, current.ready() ? 200 : 503, JSON_TYPE, body.toString());
        }
        default ->
            respond(
                exchange,
                404,
                "text/plain; charset=utf-8",
                "Not found; try /metrics, /health or /ready\n");
      }
    } catch (final RuntimeException e) {
      LOG.warn("Management request {} failed", exchange.getRequestURI(), e);
    }
  }

  static String healthJson(final BrokerHealth health) {
    final ObjectNode root = JSON.createObjectNode();
    root.put("nodeId", health.nodeId());
    root.put("status", health.status().name());
    root.put("reason", health.reason());
    root.put("ready", health.ready());
    final ArrayNode partitions = root.putArray("partitions");
    for (final BrokerHealth.Partition partition : health.partitions()) {
      final ObjectNode node = partitions.addObject();
      node.put("partitionId", partition.partitionId());
      node.put("role", partition.role().name());
      node.put("term", partition.term());
      node.put("status", partition.status().name());
      node.put("reason", partition.reason());
    }
    return root.toString();
  }

  private static String notReadyReason(final BrokerHealth health) {
    final StringBuilder reason = new StringBuilder();
    if (!health.reason().isEmpty()) {
      reason.append(health.reason());
    }
    for (final BrokerHealth.Partition partition : health.partitions()) {
      if (partition.role() != PartitionRole.LEADER && partition.role() != PartitionRole.FOLLOWER) {
        if (reason.length() > 0) {
          reason.append("; ");
        }
        reason
            .append("partition ")
            .append(partition.partitionId())
            .append(" is ")
            .append(partition.role());
      }
    }
    return reason.length() == 0 ? "not ready" : reason.toString();
  }

  private static void respond(
      final HttpExchange exchange, final int status, final String type, final String body)
      throws IOException {
    final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** Stops serving at once (management exchanges are short). */
  @Override
  public void close() {
    server.stop(0);
  }
}
