package io.cairn.gateway.security;

import io.cairn.auth.AuthOutcome;
import io.cairn.auth.AuthSettings;
import io.cairn.auth.Authenticator;
import io.cairn.auth.Authorization;
import io.cairn.auth.Authorizer;
import io.cairn.auth.Operation;
import io.cairn.auth.Principal;
import io.cairn.auth.Role;
import io.cairn.gateway.GatewayMetrics;
import io.cairn.scheduler.Clock;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may call the gateway, the same for gRPC and HTTP: authenticates a call's {@code
 * Authorization} value ({@link Authenticator}), decides whether its principal may run the operation
 * ({@link Authorizer}), counts refusals ({@value GatewayMetrics#AUTH_REFUSALS}) and writes the
 * audit trail ({@link AuditLog}): a line for every refusal and for every admin operation once it
 * ends. Ledger operations that were allowed are not audited (they are the ledger's own record, and
 * counted in {@value GatewayMetrics#REQUESTS}).
 *
 * <p>A refused caller is told only the one public message of each kind; the reason goes to the
 * audit trail and a DEBUG line. {@link Check#check} may block while the credentials file or the
 * JWKS is read again: call it off the netty event loop. Thread-safe.
 */
public final class AccessControl {
  /** The transport tag of gRPC calls. */
  public static final String GRPC = "grpc";

  /** The transport tag of management HTTP requests. */
  public static final String HTTP = "http";

  private static final Logger LOG = LoggerFactory.getLogger(AccessControl.class);

  private final Authenticator authenticator;
  private final String challenge;
  private final AuditLog audit;
  private final GatewayMetrics metrics;
  private final Clock clock;

  AccessControl(
      Authenticator authenticator,
      String challenge,
      AuditLog audit,
      GatewayMetrics metrics,
      Clock clock) {
    this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
    this.challenge = challenge;
    this.audit = Objects.requireNonNull(audit, "audit");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Reads the credentials file and the JWKS the settings name (nothing when authentication is off).
   *
   * @throws IllegalArgumentException when the credentials file or a JWKS file cannot be used
   */
  public static AccessControl create(
      AuthSettings settings, AuditLog audit, GatewayMetrics metrics, Clock clock) {
    List<String> schemes = new ArrayList<>();
    settings.apiKeysFile().ifPresent(file -> schemes.add("ApiKey realm=\"cairn\""));
    settings.jwt().ifPresent(jwt -> schemes.add("Bearer realm=\"cairn\""));
    return new AccessControl(
        Authenticator.create(settings, clock), String.join(", ", schemes), audit, metrics, clock);
  }

  /** Whether calls must authenticate; when not, every caller is the anonymous admin. */
  public boolean enabled() {
    return authenticator.enabled();
  }

  /** The {@code WWW-Authenticate} value of a 401: the schemes this gateway accepts. */
  public String challenge() {
    return challenge;
  }

  /** Starts checking one call, now. */
  public Check start(String transport, Operation operation, SocketAddress remote) {
    return new Check(transport, operation, remote, clock.nanos());
  }

  /** What a call may do. */
  public sealed interface Decision {}

  /** The call goes on as {@code principal}. */
  public record Allowed(Principal principal) implements Decision {}

  /** No valid credentials: gRPC UNAUTHENTICATED, HTTP 401 with {@code publicMessage}. */
  public record Unauthenticated(String publicMessage) implements Decision {}

  /** The principal lacks the role: gRPC PERMISSION_DENIED, HTTP 403 with {@code publicMessage}. */
  public record Forbidden(String publicMessage) implements Decision {}

  /** One call: checked once, audited once. */
  public final class Check {
    private final String transport;
    private final Operation operation;
    private final SocketAddress remote;
    private final long startNanos;
    private final AtomicBoolean audited = new AtomicBoolean();
    private volatile Principal principal;

    private Check(String transport, Operation operation, SocketAddress remote, long startNanos) {
      this.transport = transport;
      this.operation = operation;
      this.remote = remote;
      this.startNanos = startNanos;
    }

    public Operation operation() {
      return operation;
    }

    /**
     * Authenticates {@code authorization} and authorizes the operation; a refusal is counted,
     * logged at DEBUG and audited here. May block (see the class).
     *
     * @param authorization the {@code Authorization} value; null when the call has none
     */
    public Decision check(String authorization) {
      AuthOutcome outcome = authenticator.authenticate(authorization);
      if (outcome instanceof AuthOutcome.Unauthenticated rejected) {
        refused(null, AuditLog.REFUSED_UNAUTHENTICATED, rejected.failure().id(), rejected.reason());
        return new Unauthenticated(rejected.publicMessage());
      }
      Principal caller = ((AuthOutcome.Authenticated) outcome).principal();
      Authorization decision = Authorizer.authorize(caller, operation);
      if (decision instanceof Authorization.Forbidden forbidden) {
        refused(caller, AuditLog.REFUSED_FORBIDDEN, "forbidden", forbidden.reason());
        return new Forbidden(forbidden.publicMessage());
      }
      principal = caller;
      return new Allowed(caller);
    }

    /**
     * The allowed call ended: audited when it is an admin operation, once.
     *
     * @param ok whether it succeeded
     * @param status the gRPC status code or HTTP status of its answer
     */
    public void completed(boolean ok, String status) {
      if (operation.requiredRole() == Role.ADMIN && audited.compareAndSet(false, true)) {
        write(principal, ok ? AuditLog.OK : AuditLog.FAILED, status, null);
      }
    }

    private void refused(Principal caller, String outcome, String failure, String reason) {
      String refusal =
          outcome.equals(AuditLog.REFUSED_UNAUTHENTICATED)
              ? GatewayMetrics.REFUSAL_UNAUTHENTICATED
              : GatewayMetrics.REFUSAL_FORBIDDEN;
      metrics.authRefusal(transport, refusal);
      LOG.debug(
          "Refused {} {} from {}: {} ({})",
          transport,
          operation.name(),
          AuditLog.address(remote),
          reason,
          failure);
      if (audited.compareAndSet(false, true)) {
        write(
            caller,
            outcome,
            transport.equals(GRPC)
                ? (caller == null ? "UNAUTHENTICATED" : "PERMISSION_DENIED")
                : (caller == null ? "401" : "403"),
            failure + ": " + reason);
      }
    }

    private void write(Principal who, String outcome, String status, String reason) {
      audit.write(
          new AuditLog.Entry(
              clock.instant(),
              who,
              remote,
              transport,
              operation.name(),
              outcome,
              status,
              Duration.ofNanos(clock.nanos() - startNanos).toMillis(),
              reason));
    }
  }
}
