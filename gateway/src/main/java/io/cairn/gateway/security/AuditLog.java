package io.cairn.gateway.security;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.auth.Principal;
import io.cairn.auth.Role;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit trail: one JSON object a line on the SLF4J logger {@value #LOGGER} (INFO), which the
 * distribution's logging writes to a file of its own ({@code audit.jsonl}). A line for every admin
 * operation (whatever its outcome) and every refused call:
 *
 * <pre>{@code
 * {"time":"2026-05-01T12:00:00.123Z","principal":"ops.alice","method":"api-key","roles":["admin"],
 *  "remote":"10.0.0.7:51234","transport":"grpc","operation":"TakeBackup","outcome":"ok",
 *  "status":"OK","durationMs":12}
 * }</pre>
 *
 * <p>{@code outcome} is {@code ok}, {@code failed} (with the gRPC status code or HTTP status in
 * {@code status}), {@code refused-unauthenticated} or {@code refused-forbidden} (with {@code
 * reason}, for the operator: "unknown API key id 'x'", "ci-bot (api-key) holds roles [client],
 * TakeBackup needs admin"). A caller that did not authenticate is {@code "unauthenticated"} with
 * method {@code none}; with authentication off every caller is {@code "anonymous"}. Nothing a
 * caller presents as a credential is written: the principal is a key id or a token's subject, the
 * reasons come from {@code auth}, which never holds a secret.
 */
public final class AuditLog {

  /** The logger of the audit trail; route it to its own file, not additive. */
  public static final String LOGGER = "cairn.audit";

  /** Outcome of an operation that completed. */
  public static final String OK = "ok";

  /** Outcome of an allowed operation that failed; {@code status} says how. */
  public static final String FAILED = "failed";

  /** Outcome of a call without valid credentials. */
  public static final String REFUSED_UNAUTHENTICATED = "refused-unauthenticated";

  /** Outcome of a call whose principal lacks the operation's role. */
  public static final String REFUSED_FORBIDDEN = "refused-forbidden";

  /** The principal of a call that did not authenticate. */
  public static final String UNAUTHENTICATED = "unauthenticated";

  private static final Logger LOG = LoggerFactory.getLogger(LOGGER);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_TEXT_CHARS = 512;

  private final Logger log;

  /** The audit trail on {@value #LOGGER}. */
  public AuditLog() {
    this(LOG);
  }

  AuditLog(Logger log) {
    this.log = Objects.requireNonNull(log, "log");
  }

  /**
   * One audited call.
   *
   * @param time when it ended
   * @param principal who called; null when the call did not authenticate
   * @param remote where it came from; null when unknown
   * @param transport {@code grpc} or {@code http}
   * @param operation the operation's name ({@code TakeBackup})
   * @param outcome one of {@link #OK}, {@link #FAILED}, {@link #REFUSED_UNAUTHENTICATED}, {@link
   *     #REFUSED_FORBIDDEN}
   * @param status the gRPC status code or the HTTP status of the answer
   * @param durationMs from the call's arrival to its answer
   * @param reason why it was refused (never a secret); null otherwise
   */
  public record Entry(
      Instant time,
      Principal principal,
      SocketAddress remote,
      String transport,
      String operation,
      String outcome,
      String status,
      long durationMs,
      String reason) {}

  /** Writes one line. */
  public void write(Entry entry) {
    if (!log.isInfoEnabled()) {
      return;
    }
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("time", entry.time().toString());
    if (entry.principal() == null) {
      line.put("principal", UNAUTHENTICATED);
      line.put("method", "none");
      line.put("roles", List.of());
    } else {
      line.put("principal", entry.principal().name());
      line.put("method", entry.principal().method().id());
      List<String> roles = new ArrayList<>();
      for (Role role : entry.principal().roles()) {
        roles.add(role.id());
      }
      line.put("roles", roles);
    }
    line.put("remote", address(entry.remote()));
    line.put("transport", entry.transport());
    line.put("operation", shorten(entry.operation()));
    line.put("outcome", entry.outcome());
    line.put("status", entry.status());
    line.put("durationMs", entry.durationMs());
    if (entry.reason() != null) {
      line.put("reason", shorten(entry.reason()));
    }
    try {
      log.info(JSON.writeValueAsString(line));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Expected an audit line of strings and numbers", e);
    }
  }

  /** {@code 10.0.0.7:51234}, {@code [::1]:51234}; {@code unknown} without an address. */
  static String address(SocketAddress remote) {
    if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
      String host = inet.getAddress().getHostAddress();
      return (host.contains(":") ? "[" + host + "]" : host) + ":" + inet.getPort();
    }
    return remote == null ? "unknown" : remote.toString();
  }

  private static String shorten(String text) {
    return text.length() <= MAX_TEXT_CHARS ? text : text.substring(0, MAX_TEXT_CHARS) + "...";
  }
}
