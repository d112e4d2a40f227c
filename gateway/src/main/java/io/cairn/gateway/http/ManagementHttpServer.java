package io.cairn.gateway.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.cairn.auth.GatewayOperations;
import io.cairn.auth.Operation;
import io.cairn.backupapi.ClusterBackupStatus;
import io.cairn.gateway.GatewayErrorCode;
import io.cairn.gateway.GatewayException;
import io.cairn.gateway.GatewayMetrics;
import io.cairn.gateway.admin.BackupAdmin;
import io.cairn.gateway.admin.BackupListing;
import io.cairn.gateway.admin.ExportingAdmin;
import io.cairn.gateway.admin.PartitionCheckpointResult;
import io.cairn.gateway.admin.RestoreAdmin;
import io.cairn.gateway.admin.TakeBackupResult;
import io.cairn.gateway.routing.Deadline;
import io.cairn.gateway.security.AccessControl;
import io.cairn.gateway.topology.ClusterTopology;
import io.cairn.gateway.topology.TopologyManager;
import io.cairn.httpendpoints.EndpointServer;
import io.cairn.httpendpoints.Exchange;
import io.cairn.httpendpoints.Problem;
import io.cairn.httpendpoints.Route;
import io.cairn.httpendpoints.Routes;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.Futures;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's management HTTP endpoints, a routing table on http-endpoints' {@link
 * EndpointServer} (JDK {@code HttpServer}, on the gateway's own bounded executor):
 *
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><td>GET /metrics</td><td>Prometheus text format</td></tr>
 *   <tr><td>GET /health</td><td>200 {@code {"status":"UP"}} while the gateway runs</td></tr>
 *   <tr><td>GET /ready</td><td>200 when a leader is known for every partition, else 503</td></tr>
 *   <tr><td>GET /console/</td><td>the web console ({@link ConsoleAssets}); {@code /} and {@code
 *       /console} redirect to it</td></tr>
 *   <tr><td>GET /actuator/topology</td><td>200, brokers, replicas and partition leaders as {@link
 *       TopologyJson}</td></tr>
 *   <tr><td>POST /actuator/backups {@code {"backupId": N}}</td><td>202 {@code {"message",
 *       "backupId", "partitions": [{"partitionId", "created", "checkpointId",
 *       "checkpointPosition"}]}}; 400 bad id, 409 id not higher than the last, 503
 *       unavailable</td></tr>
 *   <tr><td>GET /actuator/backups</td><td>200, JSON array newest first (at most 1000)</td></tr>
 *   <tr><td>GET /actuator/backups/{id}</td><td>200; 404 when no partition has it</td></tr>
 *   <tr><td>DELETE /actuator/backups/{id}</td><td>204; 409 while in progress</td></tr>
 *   <tr><td>POST /actuator/exporting/pause | resume</td><td>204</td></tr>
 *   <tr><td>POST /actuator/restore {@code {"backupId": N}}, {@code {"latest": true}}, {@code
 *       {"checkpointId": N}} or {@code {"time": "..."}}</td><td>202 with the restore's state
 *       ({@link RestoreJson}); 409 when a broker holds data or restores already</td></tr>
 *   <tr><td>GET /actuator/restore</td><td>200, the restore's state on every broker</td></tr>
 * </table>
 *
 * <p>Errors are RFC 7807 problem details naming the field, the bad value and what is allowed;
 * unknown paths (404) and methods (405, with {@code Allow}) are answered by the routing table.
 * Request bodies are limited to {@code httpMaxBodyBytes} (413 beyond). Bad requests are logged at
 * DEBUG only. Every request is counted in {@code cairn.gateway.requests} (operation {@code
 * http-...}, {@code http-unknown} when no route answers) before its answer goes out.
 *
 * <p>Access ({@link HttpAccess}): {@code /metrics}, {@code /health}, {@code /ready} and the
 * console's files are open; with {@code gateway.security.auth.enabled} every {@code /actuator}
 * route takes credentials with role admin (401 with {@code WWW-Authenticate}, 403 otherwise) and
 * runs the same operation as its gRPC twin ({@code TakeBackup}, ...), audited like it.
 */
public final class ManagementHttpServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ManagementHttpServer.class);
  private static final String BACKUP_PATH = "/actuator/backups/(?<id>[^/]*)";
  private static final Pattern POSITIVE_ID = Pattern.compile("[1-9][0-9]{0,18}");
  private static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  /**
   * Routes anyone may call: scrapers and probes have no credentials, and the console's files hold
   * no data (the page calls the routes below with the operator's credentials).
   */
  private static final Set<String> OPEN =
      Set.of("http-metrics", "http-health", "http-ready", "http-console");

  /** What each other route runs, and so the role it takes (admin for every one of them). */
  private static final Map<String, Operation> OPERATIONS =
      Map.ofEntries(
          Map.entry("http-list-backups", GatewayOperations.LIST_BACKUPS),
          Map.entry("http-take-backup", GatewayOperations.TAKE_BACKUP),
          Map.entry("http-get-backup", GatewayOperations.GET_BACKUP),
          Map.entry("http-delete-backup", GatewayOperations.DELETE_BACKUP),
          Map.entry("http-backup-schedule", GatewayOperations.GET_BACKUP_SCHEDULE),
          Map.entry("http-pause-exporting", GatewayOperations.PAUSE_EXPORTING),
          Map.entry("http-resume-exporting", GatewayOperations.RESUME_EXPORTING),
          Map.entry("http-restore", GatewayOperations.RESTORE),
          Map.entry("http-restore-status", GatewayOperations.GET_RESTORE_STATUS),
          Map.entry("http-restore-points", GatewayOperations.LIST_RESTORE_POINTS),
          Map.entry("http-topology", GatewayOperations.GET_TOPOLOGY));

  private final EndpointServer server;
  private final Duration requestTimeout;
  private final Clock clock;
  private final BackupAdmin backups;
  private final ExportingAdmin exporting;
  private final RestoreAdmin restore;
  private final TopologyManager topology;
  private final PrometheusMeterRegistry registry;
  private final ConsoleAssets console = new ConsoleAssets();

  /** Creates the server; nothing is bound before {@link #start()}. */
  public ManagementHttpServer(
      String host,
      int port,
      int maxBodyBytes,
      Duration requestTimeout,
      Clock clock,
      BackupAdmin backups,
      ExportingAdmin exporting,
      RestoreAdmin restore,
      TopologyManager topology,
      PrometheusMeterRegistry registry,
      GatewayMetrics metrics,
      ExecutorService executor,
      Optional<SSLContext> tls,
      AccessControl access) {
    this.requestTimeout = requestTimeout;
    this.clock = clock;
    this.backups = backups;
    this.exporting = exporting;
    this.restore = restore;
    this.topology = topology;
    this.registry = registry;
    EndpointServer.Builder builder =
        EndpointServer.builder("gateway", routes())
            .bind(host, port, "httpHost/httpPort")
            .executor(executor)
            .maxBodyBytes(maxBodyBytes)
            .backlog(64)
            .logger(LOG)
            // counted before the answer goes out: whoever got it and then reads /metrics sees it
            .observer(
                clock,
                (operation, result, latency) ->
                    metrics.request(operation.orElse("http-unknown"), result, latency))
            .interceptor(new HttpAccess(access, OPEN, OPERATIONS));
    tls.ifPresent(builder::tls);
    this.server = builder.build();
  }

  private Routes routes() {
    return Routes.of(
        Route.exact(
            "GET",
            "/metrics",
            "http-metrics",
            exchange -> exchange.sendText(200, PROMETHEUS_TYPE, registry.scrape())),
        Route.exact(
            "GET",
            "/health",
            "http-health",
            exchange -> exchange.sendJson(200, Map.of("status", "UP"))),
        Route.exact("GET", "/ready", "http-ready", this::ready),
        Route.exact("GET", "/", "http-console", ConsoleAssets::redirect),
        Route.exact("GET", "/console", "http-console", ConsoleAssets::redirect),
        Route.pattern(
            "GET",
            "/console/(?<file>[^/]*)",
            "/console/{file}",
            "http-console",
            exchange -> console.serve(exchange, exchange.pathParameter("file"))),
        Route.exact(
            "GET",
            "/actuator/topology",
            "http-topology",
            exchange ->
                exchange.sendJson(200, TopologyJson.of(await(deadline -> topology.refresh())))),
        // GET before POST: the order of 405's "Expected method GET or POST" and its Allow
        Route.exact("GET", "/actuator/backups", "http-list-backups", this::listBackups),
        Route.exact("POST", "/actuator/backups", "http-take-backup", this::takeBackup),
        // before the {id} pattern, which would take "schedule" for an id
        Route.exact(
            "GET",
            "/actuator/backups/schedule",
            "http-backup-schedule",
            exchange -> exchange.sendJson(200, BackupJson.schedule(await(backups::schedule)))),
        Route.pattern(
            "GET", BACKUP_PATH, "/actuator/backups/{id}", "http-get-backup", this::getBackup),
        Route.pattern(
            "DELETE",
            BACKUP_PATH,
            "/actuator/backups/{id}",
            "http-delete-backup",
            this::deleteBackup),
        Route.exact(
            "POST",
            "/actuator/exporting/pause",
            "http-pause-exporting",
            exchange -> {
              await(exporting::pause);
              exchange.sendEmpty(204);
            }),
        Route.exact(
            "POST",
            "/actuator/exporting/resume",
            "http-resume-exporting",
            exchange -> {
              await(exporting::resume);
              exchange.sendEmpty(204);
            }),
        Route.exact(
            "GET",
            "/actuator/restore",
            "http-restore-status",
            exchange -> exchange.sendJson(200, RestoreJson.of(await(restore::status)))),
        Route.exact(
            "GET",
            "/actuator/restore-points",
            "http-restore-points",
            exchange ->
                exchange.sendJson(
                    200,
                    RestoreJson.points(await(deadline -> restore.restorePoints(0, deadline))))),
        Route.exact(
            "POST",
            "/actuator/restore",
            "http-restore",
            exchange -> {
              var request = RestoreJson.parse(exchange.body());
              exchange.sendJson(
                  202, RestoreJson.of(await(deadline -> restore.start(request, deadline))));
            }));
  }

  /**
   * Binds the port and starts serving.
   *
   * @throws UncheckedIOException if the port cannot be bound
   */
  public void start() {
    server.start();
  }

  /** The bound address (with the real port when configured as 0). */
  public InetSocketAddress address() {
    return server.address();
  }

  private void getBackup(Exchange exchange) throws IOException {
    long id = backupId(exchange.pathParameter("id"), exchange);
    exchange.sendJson(200, BackupJson.of(await(deadline -> backups.get(id, deadline))));
  }

  private void deleteBackup(Exchange exchange) throws IOException {
    long id = backupId(exchange.pathParameter("id"), exchange);
    await(deadline -> backups.delete(id, deadline));
    exchange.sendEmpty(204);
  }

  private void ready(Exchange exchange) throws IOException {
    ClusterTopology current = topology.current();
    if (!current.hasAllLeaders()) {
      throw new Problem(
          503,
          "Expected a known leader for every partition, but "
              + (current.partitionCount() == 0
                  ? "no broker has answered yet"
                  : "partitions " + current.partitionsWithoutLeader() + " have none"));
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "READY");
    body.put("partitionCount", current.partitionCount());
    body.put("reachableBrokers", current.reachableBrokers());
    exchange.sendJson(200, body);
  }

  private void takeBackup(Exchange exchange) throws IOException {
    byte[] body = exchange.body();
    long backupId = parseBackupId(body);
    TakeBackupResult taken = await(deadline -> backups.take(backupId, deadline));
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put(
        "message",
        "A backup with id "
            + backupId
            + " has been scheduled. Use GET"
            + " actuator/backups/"
            + backupId
            + " to monitor the status.");
    // Beyond Zeebe's answer: what every partition answered to CHECKPOINT CREATE.
    answer.put("backupId", taken.backupId());
    List<Map<String, Object>> partitions = new ArrayList<>();
    for (PartitionCheckpointResult partition : taken.partitions()) {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("partitionId", partition.partitionId());
      json.put("created", partition.created());
      json.put("checkpointId", partition.checkpointId());
      json.put("checkpointPosition", partition.checkpointPosition());
      partitions.add(json);
    }
    answer.put("partitions", partitions);
    exchange.sendJson(202, answer);
  }

  /** Parses {@code {"backupId": N}} with N a positive integer. */
  static long parseBackupId(byte[] body) {
    String rule = "a JSON object {\"backupId\": <integer >= 1>}";
    if (body.length == 0) {
      throw Problem.badRequest("Expected " + rule + ", but the body is empty");
    }
    JsonNode json;
    try {
      json = Exchange.json().readTree(body);
    } catch (JsonProcessingException e) {
      throw Problem.badRequest(
          "Expected " + rule + ", but the body is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw Problem.badRequest("Expected " + rule + ", but the body could not be read: " + e);
    }
    if (json == null || !json.isObject()) {
      throw Problem.badRequest(
          "Expected "
              + rule
              + ", but was a JSON "
              + (json == null
                  ? "nothing"
                  : json.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
    }
    JsonNode id = json.get("backupId");
    if (id == null || id.isNull()) {
      throw Problem.badRequest("Expected field backupId (an integer >= 1), but it is missing");
    }
    if (!id.isIntegralNumber() || !id.canConvertToLong()) {
      throw Problem.badRequest(
          "Expected backupId to be an integer >= 1 and <= "
              + Long.MAX_VALUE
              + ", but was "
              + shorten(id.toString()));
    }
    long value = id.longValue();
    if (value < 1) {
      throw Problem.badRequest("Expected backupId >= 1, but was " + value);
    }
    return value;
  }

  private void listBackups(Exchange exchange) throws IOException {
    BackupListing listing =
        await(deadline -> backups.list(BackupAdmin.MAX_PAGE_SIZE, "", deadline));
    List<Map<String, Object>> body = new ArrayList<>();
    for (ClusterBackupStatus status : listing.backups()) {
      body.add(BackupJson.of(status));
    }
    exchange.sendJson(200, body);
  }

  private static long backupId(String segment, Exchange exchange) {
    if (!POSITIVE_ID.matcher(segment).matches()) {
      throw Problem.badRequest(
          "Expected backupId in the path to be an integer >= 1, but was '"
              + shorten(segment)
              + "' ("
              + exchange.method()
              + " "
              + exchange.path()
              + ")");
    }
    try {
      return Long.parseLong(segment);
    } catch (NumberFormatException e) {
      throw Problem.badRequest(
          "Expected backupId in the path to be at most "
              + Long.MAX_VALUE
              + ", but was '"
              + segment
              + "'");
    }
  }

  /** Runs an admin call and waits for it on this HTTP worker thread. */
  private <T> T await(Function<Deadline, CompletableFuture<T>> call) {
    Deadline deadline = Deadline.after(clock, requestTimeout);
    try {
      return call.apply(deadline).get(requestTimeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Problem(503, "Expected the request to complete, but the gateway is stopping");
    } catch (TimeoutException e) {
      throw GatewayProblems.of(
          GatewayErrorCode.DEADLINE_EXCEEDED,
          "Expected an answer within " + requestTimeout.toMillis() + " ms, but none came");
    } catch (ExecutionException | RuntimeException e) {
      Throwable cause = Futures.unwrap(e);
      if (cause instanceof GatewayException gateway) {
        throw GatewayProblems.of(gateway.code(), gateway.getMessage());
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(cause);
    }
  }

  /** At most 64 characters of {@code value} for an error message. */
  static String shorten(String value) {
    return value.length() <= 64 ? value : value.substring(0, 64) + "...";
  }

  @Override
  public void close() {
    server.close();
  }
}
