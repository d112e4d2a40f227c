package io.cairn.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.tls.ClientTls;
import io.cairn.tls.TlsConfigurationException;
import io.cairn.tls.TlsFile;
import io.cairn.tls.TlsFiles;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The client of a gateway's management HTTP endpoints (the paths Zeebe operators script against):
 * {@code /actuator/backups}, {@code /actuator/exporting/pause|resume}, {@code /health}, {@code
 * /ready}, {@code /metrics}. Uses {@code java.net.http}.
 *
 * <p>Contract: thread-safe; every call returns or throws {@link CairnClientException}. A problem
 * detail (RFC 7807) becomes the exception's message, its status the {@link ErrorCode}: 400
 * INVALID_ARGUMENT, 401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 404 NOT_FOUND, 409 ALREADY_EXISTS
 * when taking a backup and FAILED_PRECONDITION otherwise, 429 RESOURCE_EXHAUSTED, 503 UNAVAILABLE,
 * 504 DEADLINE_EXCEEDED, 500 INTERNAL. Credentials: {@link #withApiKey}, {@link #withBearerToken}.
 * Connection failures are UNAVAILABLE; no answer within the timeout is DEADLINE_EXCEEDED.
 */
public final class ManagementClient {
  /** Default per-request timeout. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(15);

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String RULE =
      "an http or https URI with a host, such as" + " http://127.0.0.1:9600";

  private final URI base;
  private final Duration requestTimeout;
  private final HttpClient http;
  private final Optional<Authorization> authorization;

  private ManagementClient(
      URI base, Duration requestTimeout, HttpClient http, Optional<Authorization> authorization) {
    this.base = base;
    this.requestTimeout = requestTimeout;
    this.http = http;
    this.authorization = authorization;
  }

  /** A client of the endpoints under {@code base} (e.g. {@code http://127.0.0.1:9600}). */
  public static ManagementClient of(URI base) {
    return of(base, DEFAULT_REQUEST_TIMEOUT);
  }

  /**
   * @param requestTimeout each request's timeout, 1 ms .. 1 h
   * @throws CairnClientException INVALID_ARGUMENT for a base that is not an http(s) URI with a
   *     host, or a bad timeout
   */
  public static ManagementClient of(URI base, Duration requestTimeout) {
    Arguments arguments = Arguments.of("ManagementClient");
    if (base == null
        || base.getScheme() == null
        || base.getHost() == null
        || !List.of("http", "https").contains(base.getScheme().toLowerCase(Locale.ROOT))) {
      arguments.add(
          "Expected base "
              + RULE
              + ", but was "
              + (base == null ? "null" : Arguments.quote(base.toString())));
    }
    arguments.duration(
        "requestTimeout",
        requestTimeout,
        CairnClient.REQUEST_TIMEOUT_MIN,
        CairnClient.REQUEST_TIMEOUT_MAX);
    arguments.check();
    String text = base.toString();
    return new ManagementClient(
        URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text),
        requestTimeout,
        HttpClient.newBuilder()
            .connectTimeout(requestTimeout)
            .version(HttpClient.Version.HTTP_1_1)
            .build(),
        Optional.empty());
  }

  /**
   * This client presenting an API key on every request ({@code Authorization: ApiKey
   * <keyId>.<secret>}), for a gateway with {@code gateway.security.auth.enabled}; {@code /metrics},
   * {@code /health} and {@code /ready} need none. Beyond this machine, send credentials only over
   * https.
   *
   * @throws CairnClientException INVALID_ARGUMENT for a blank key or one with characters a header
   *     cannot carry (the key is not shown)
   */
  public ManagementClient withApiKey(String key) {
    return with(Authorization.of("apiKey", Authorization.API_KEY, key));
  }

  /** This client presenting a JWT on every request ({@code Authorization: Bearer <token>}). */
  public ManagementClient withBearerToken(String token) {
    return with(Authorization.of("bearerToken", Authorization.BEARER, token));
  }

  /**
   * This client presenting {@code authorizationValue} as it is ({@code ApiKey ...}, {@code Bearer
   * ...}).
   */
  public ManagementClient withCredentials(String authorizationValue) {
    return with(Authorization.of("credentials", null, authorizationValue));
  }

  /**
   * This client speaking https to endpoints whose certificate the CA in {@code caFile} (PEM)
   * signed, like {@link CairnClient.Builder#trustedCaFile}: the cluster's own CA of {@code cairn
   * cluster up --secure}, for instance. Without it, https trusts the JVM's default CAs.
   *
   * @throws CairnClientException INVALID_ARGUMENT naming the file when it cannot be read or holds
   *     no certificate
   */
  public ManagementClient withTrustedCaFile(Path caFile) {
    ClientTls tls;
    try {
      tls = ClientTls.load(TlsFiles.trustOnly(new TlsFile("trustedCaFile", caFile)));
    } catch (TlsConfigurationException e) {
      throw new CairnClientException(ErrorCode.INVALID_ARGUMENT, e.getMessage(), e);
    }
    return new ManagementClient(
        base,
        requestTimeout,
        HttpClient.newBuilder()
            .connectTimeout(requestTimeout)
            .version(HttpClient.Version.HTTP_1_1)
            .sslContext(tls.sslContext())
            .build(),
        authorization);
  }

  private ManagementClient with(Authorization credentials) {
    return new ManagementClient(base, requestTimeout, http, Optional.of(credentials));
  }

  /** The base URI of the endpoints. */
  public URI base() {
    return base;
  }

  /**
   * {@code POST /actuator/backups {"backupId": N}}: takes backup {@code backupId}.
   *
   * @return the partitions' answers (empty when the gateway does not report them)
   */
  public BackupTaken takeBackup(long backupId) {
    String operation = "POST /actuator/backups";
    Arguments.of(operation).backupId(backupId).check();
    JsonNode body =
        json(
            send(
                operation,
                request("/actuator/backups")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"backupId\": " + backupId + "}")),
                202,
                ErrorCode.ALREADY_EXISTS),
            operation);
    List<PartitionCheckpoint> partitions = new ArrayList<>();
    for (JsonNode p : body.path("partitions")) {
      partitions.add(
          new PartitionCheckpoint(
              p.path("partitionId").asInt(),
              p.path("created").asBoolean(),
              p.path("checkpointId").asLong(),
              p.path("checkpointPosition").asLong()));
    }
    return new BackupTaken(body.path("backupId").asLong(backupId), partitions);
  }

  /** {@code GET /actuator/backups/{id}}; NOT_FOUND when no partition has it. */
  public BackupInfo getBackup(long backupId) {
    String operation = "GET /actuator/backups/" + backupId;
    Arguments.of(operation).backupId(backupId).check();
    return BackupJsonMapping.backup(
        json(
            send(
                operation,
                request("/actuator/backups/" + backupId).GET(),
                200,
                ErrorCode.FAILED_PRECONDITION),
            operation));
  }

  /** {@code GET /actuator/backups}: backups newest first (at most 1000). */
  public List<BackupInfo> listBackups() {
    String operation = "GET /actuator/backups";
    JsonNode body =
        json(
            send(operation, request("/actuator/backups").GET(), 200, ErrorCode.FAILED_PRECONDITION),
            operation);
    if (!body.isArray()) {
      throw unexpected(operation, "a JSON array", body.getNodeType().toString());
    }
    List<BackupInfo> backups = new ArrayList<>();
    body.forEach(backup -> backups.add(BackupJsonMapping.backup(backup)));
    return backups;
  }

  /** {@code DELETE /actuator/backups/{id}}; FAILED_PRECONDITION while it is in progress. */
  public void deleteBackup(long backupId) {
    String operation = "DELETE /actuator/backups/" + backupId;
    Arguments.of(operation).backupId(backupId).check();
    send(
        operation,
        request("/actuator/backups/" + backupId).DELETE(),
        204,
        ErrorCode.FAILED_PRECONDITION);
  }

  /** {@code POST /actuator/exporting/pause} on every broker. */
  public void pauseExporting() {
    String operation = "POST /actuator/exporting/pause";
    send(
        operation,
        request("/actuator/exporting/pause").POST(HttpRequest.BodyPublishers.noBody()),
        204,
        ErrorCode.FAILED_PRECONDITION);
  }

  /** {@code POST /actuator/exporting/resume} on every broker. */
  public void resumeExporting() {
    String operation = "POST /actuator/exporting/resume";
    send(
        operation,
        request("/actuator/exporting/resume").POST(HttpRequest.BodyPublishers.noBody()),
        204,
        ErrorCode.FAILED_PRECONDITION);
  }

  /** {@code GET /health}: the gateway's status ({@code "UP"} while it runs). */
  public String health() {
    String operation = "GET /health";
    return json(
            send(operation, request("/health").GET(), 200, ErrorCode.FAILED_PRECONDITION),
            operation)
        .path("status")
        .asText("");
  }

  /** {@code GET /ready}: whether the gateway knows a leader for every partition (false on 503). */
  public boolean ready() {
    String operation = "GET /ready";
    HttpResponse<String> response = exchange(operation, request("/ready").GET());
    if (response.statusCode() == 200) {
      return true;
    }
    if (response.statusCode() == 503) {
      return false;
    }
    throw failure(operation, response, ErrorCode.FAILED_PRECONDITION);
  }

  /** {@code GET /metrics}: the Prometheus text exposition. */
  public String metrics() {
    return send("GET /metrics", request("/metrics").GET(), 200, ErrorCode.FAILED_PRECONDITION);
  }

  // ---- plumbing --------------------------------------------------------------------------------

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(requestTimeout);
    authorization.ifPresent(credentials -> request.header("Authorization", credentials.value()));
    return request;
  }

  /** Sends; returns the body when the status is {@code expected}, else throws. */
  private String send(
      String operation, HttpRequest.Builder request, int expected, ErrorCode conflict) {
    HttpResponse<String> response = exchange(operation, request);
    if (response.statusCode() != expected) {
      throw failure(operation, response, conflict);
    }
    return response.body();
  }

  private HttpResponse<String> exchange(String operation, HttpRequest.Builder request) {
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (HttpTimeoutException e) {
      throw new CairnClientException(
          ErrorCode.DEADLINE_EXCEEDED,
          "Expected an answer to "
              + operation
              + " from "
              + base
              + " within "
              + requestTimeout.toMillis()
              + " ms, but none came; the outcome is unknown",
          e);
    } catch (ConnectException e) {
      throw new CairnClientException(
          ErrorCode.UNAVAILABLE,
          "Expected the gateway at "
              + base
              + " to accept a connection ("
              + operation
              + "), but "
              + describe(e)
              + ". Is the gateway running?",
          e);
    } catch (IOException e) {
      throw new CairnClientException(
          ErrorCode.UNAVAILABLE,
          "Expected an answer to " + operation + " from " + base + ", but " + describe(e),
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CairnClientException(
          ErrorCode.CANCELLED,
          "Expected to wait for the answer to "
              + operation
              + ", but the thread was interrupted; the outcome is unknown",
          e);
    }
  }

  private static String describe(IOException e) {
    String message =
        e.getMessage() != null
            ? e.getMessage()
            : e.getCause() != null ? String.valueOf(e.getCause().getMessage()) : null;
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  /** The exception for an unexpected status: the problem detail's text when there is one. */
  private CairnClientException failure(
      String operation, HttpResponse<String> response, ErrorCode conflict) {
    int status = response.statusCode();
    ErrorCode code =
        switch (status) {
          case 400, 405, 413, 415 -> ErrorCode.INVALID_ARGUMENT;
          case 401 -> ErrorCode.UNAUTHENTICATED;
          case 403 -> ErrorCode.PERMISSION_DENIED;
          case 404 -> ErrorCode.NOT_FOUND;
          case 409 -> conflict;
          case 429 -> ErrorCode.RESOURCE_EXHAUSTED;
          case 503 -> ErrorCode.UNAVAILABLE;
          case 504 -> ErrorCode.DEADLINE_EXCEEDED;
          case 500 -> ErrorCode.INTERNAL;
          default -> ErrorCode.UNKNOWN;
        };
    String detail = null;
    try {
      JsonNode problem = JSON.readTree(response.body());
      if (problem != null && problem.hasNonNull("detail")) {
        detail = problem.get("detail").asText();
      }
    } catch (JsonProcessingException e) {
      // not a problem detail: the status line below says what happened
    }
    return new CairnClientException(
        code,
        detail != null
            ? detail
            : "Expected a successful answer to "
                + operation
                + " from "
                + base
                + ", but got HTTP "
                + status
                + (response.body().isBlank() ? "" : ": " + shorten(response.body())));
  }

  private JsonNode json(String body, String operation) {
    try {
      JsonNode node = JSON.readTree(body);
      if (node == null || node.isMissingNode()) {
        throw unexpected(operation, "a JSON body", "an empty body");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw unexpected(
          operation, "a JSON body", "'" + shorten(body) + "' (" + e.getOriginalMessage() + ")");
    }
  }

  private CairnClientException unexpected(String operation, String expected, String actual) {
    return new CairnClientException(
        ErrorCode.INTERNAL,
        "Expected "
            + expected
            + " in the answer"
            + " to "
            + operation
            + " from "
            + base
            + ", but got "
            + actual);
  }

  private static String shorten(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200) + "...";
  }

  @Override
  public String toString() {
    return "ManagementClient{"
        + base
        + ", credentials="
        + authorization.map(Authorization::toString).orElse("none")
        + "}";
  }
}
