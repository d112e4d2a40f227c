package io.cairn.broker.management;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cairn.broker.BrokerHealth;
import io.cairn.broker.partition.PartitionHealthStatus;
import io.cairn.broker.partition.PartitionRole;
import io.cairn.httpendpoints.EndpointServer;
import io.cairn.httpendpoints.Route;
import io.cairn.httpendpoints.Routes;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The management HTTP endpoints of one broker, a routing table on http-endpoints' {@link
 * EndpointServer} (JDK {@code HttpServer}):
 *
 * <table>
 *   <caption>Endpoints (GET only)</caption>
 *   <tr><th>path</th><th>answer</th></tr>
 *   <tr><td>{@code /metrics}</td><td>every meter in the Prometheus text format</td></tr>
 *   <tr><td>{@code /health}</td><td>JSON: the broker's status and reason and every partition's
 *       role, term, status and reason; 200 unless the broker is FAILED (503)</td></tr>
 *   <tr><td>{@code /ready}</td><td>JSON {@code {"ready": ..., "reason": ...}}; 200 when the broker
 *       runs and every hosted partition has a role and is not FAILED, else 503</td></tr>
 * </table>
 *
 * <p>Other paths are answered 404 and other methods 405 (with {@code Allow: GET}), as RFC 7807
 * problem details like the gateway's management endpoints; an unexpected failure 500.
 */
public final class ManagementServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ManagementServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String JSON_TYPE = "application/json; charset=utf-8";
  private static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final EndpointServer server;

  private ManagementServer(EndpointServer server) {
    this.server = server;
  }

  /**
   * Binds {@code host:port} (0 = ephemeral) and starts serving on {@code executor} (the caller owns
   * it and shuts it down after {@link #close()}).
   *
   * @param tls serves HTTPS with it; empty: plain HTTP
   * @throws UncheckedIOException naming the address if it cannot be bound
   */
  public static ManagementServer start(
      String host,
      int port,
      PrometheusMeterRegistry registry,
      Supplier<BrokerHealth> health,
      ExecutorService executor,
      Optional<SSLContext> tls) {
    EndpointServer.Builder builder =
        EndpointServer.builder(
                "broker", routes(Objects.requireNonNull(registry), Objects.requireNonNull(health)))
            .bind(host, port, "management.host/management.port")
            .executor(executor)
            .backlog(16)
            .logger(LOG);
    tls.ifPresent(builder::tls);
    EndpointServer server = builder.build();
    server.start();
    ManagementServer management = new ManagementServer(server);
    LOG.info("Management server listening on {}", management.address());
    return management;
  }

  private static Routes routes(PrometheusMeterRegistry registry, Supplier<BrokerHealth> health) {
    return Routes.of(
        Route.exact(
            "GET",
            "/metrics",
            "metrics",
            exchange -> exchange.sendText(200, PROMETHEUS_TYPE, registry.scrape())),
        Route.exact(
            "GET",
            "/health",
            "health",
            exchange -> {
              BrokerHealth current = health.get();
              exchange.sendText(
                  current.status() == PartitionHealthStatus.FAILED ? 503 : 200,
                  JSON_TYPE,
                  healthJson(current));
            }),
        Route.exact(
            "GET",
            "/ready",
            "ready",
            exchange -> {
              BrokerHealth current = health.get();
              ObjectNode body = JSON.createObjectNode();
              body.put("nodeId", current.nodeId());
              body.put("ready", current.ready());
              body.put("reason", current.ready() ? "" : notReadyReason(current));
              exchange.sendText(current.ready() ? 200 : 503, JSON_TYPE, body.toString());
            }));
  }

  /** The bound address (with the real port when 0 was asked for). */
  public InetSocketAddress address() {
    return server.address();
  }

  static String healthJson(BrokerHealth health) {
    ObjectNode root = JSON.createObjectNode();
    root.put("nodeId", health.nodeId());
    root.put("status", health.status().name());
    root.put("reason", health.reason());
    root.put("ready", health.ready());
    ArrayNode partitions = root.putArray("partitions");
    for (BrokerHealth.Partition partition : health.partitions()) {
      ObjectNode node = partitions.addObject();
      node.put("partitionId", partition.partitionId());
      node.put("role", partition.role().name());
      node.put("term", partition.term());
      node.put("status", partition.status().name());
      node.put("reason", partition.reason());
    }
    return root.toString();
  }

  private static String notReadyReason(BrokerHealth health) {
    StringBuilder reason = new StringBuilder();
    if (!health.reason().isEmpty()) {
      reason.append(health.reason());
    }
    for (BrokerHealth.Partition partition : health.partitions()) {
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

  /** Stops serving at once (management exchanges are short). */
  @Override
  public void close() {
    server.close();
  }
}
