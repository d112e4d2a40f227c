package io.cairn.gateway.grpc;

import io.cairn.gateway.GatewayMetrics;
import io.cairn.gateway.admin.BackupAdmin;
import io.cairn.gateway.admin.ExportingAdmin;
import io.cairn.gateway.admin.RestoreAdmin;
import io.cairn.gateway.ledger.LedgerOperations;
import io.cairn.gateway.security.AccessControl;
import io.cairn.gateway.topology.ClusterTopology;
import io.cairn.gateway.topology.TopologyManager;
import io.cairn.gateway.v1.AdminServiceGrpc;
import io.cairn.gateway.v1.LedgerServiceGrpc;
import io.cairn.scheduler.Clock;
import io.cairn.tls.ServerTls;
import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The gateway's gRPC server: {@code cairn.gateway.v1.LedgerService}, {@code
 * cairn.gateway.v1.AdminService}, server reflection (v1 and v1alpha) and the standard health
 * service ({@code grpc.health.v1.Health}). Health: the overall service ("") is SERVING while the
 * server runs; {@code LedgerService} and {@code AdminService} are SERVING while the topology knows
 * a leader for every partition.
 *
 * <p>Access: every service but health goes through {@link AccessInterceptor} (credentials and roles
 * when {@code gateway.security.auth.enabled}; the audit trail of admin calls). Health stays open:
 * load balancers and probes have no credentials, and it tells nothing but whether the gateway
 * serves. Reflection is an admin operation (it is not in the ledger's or the admin API's table, and
 * what is not listed takes admin); clients use the {@code .proto} files.
 *
 * <p>Handlers never block: they run on the transport threads and continue asynchronously; with
 * authentication on, a call's check and its handler's start run on the gateway's check pool.
 */
public final class GrpcServer implements AutoCloseable {
  private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);

  private final Server server;
  private final HealthStatusManager health = new HealthStatusManager();

  // v1alpha reflection is deprecated but still what older generic clients (grpcurl < 1.9) ask for.
  @SuppressWarnings("deprecation")
  public GrpcServer(
      String host,
      int port,
      int maxMessageSizeBytes,
      LedgerOperations ledger,
      BackupAdmin backups,
      ExportingAdmin exporting,
      RestoreAdmin restore,
      TopologyManager topology,
      Clock clock,
      Duration requestTimeout,
      GatewayMetrics metrics,
      Optional<ServerTls> tls,
      AccessControl access,
      Executor checks) {
    GrpcCalls calls = new GrpcCalls(clock, requestTimeout, metrics);
    AccessInterceptor interceptor = new AccessInterceptor(access, checks);
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(host, port));
    tls.ifPresent(t -> builder.sslContext(sslContext(t)));
    this.server =
        builder
            .directExecutor()
            .maxInboundMessageSize(maxMessageSizeBytes)
            .maxInboundMetadataSize(16 * 1024)
            .addService(intercept(new LedgerGrpcService(ledger, calls), interceptor))
            .addService(
                intercept(
                    new AdminGrpcService(backups, exporting, restore, topology, calls),
                    interceptor))
            .addService(intercept(ProtoReflectionServiceV1.newInstance(), interceptor))
            .addService(intercept(ProtoReflectionService.newInstance(), interceptor))
            // open: probes have no credentials, and it tells nothing but whether the gateway serves
            .addService(health.getHealthService())
            .build();
    health.setStatus(LedgerServiceGrpc.SERVICE_NAME, ServingStatus.NOT_SERVING);
    health.setStatus(AdminServiceGrpc.SERVICE_NAME, ServingStatus.NOT_SERVING);
  }

  private static ServerServiceDefinition intercept(
      BindableService service, AccessInterceptor interceptor) {
    return ServerInterceptors.intercept(service, interceptor);
  }

  /** gRPC's TLS (HTTP/2 over ALPN) with the gateway's reloading certificate. */
  private static SslContext sslContext(ServerTls tls) {
    try {
      return GrpcSslContexts.configure(SslContextBuilder.forServer(tls.keyManager()))
          .protocols(tls.protocols())
          .build();
    } catch (SSLException e) {
      throw new IllegalStateException("Expected to set up TLS for gRPC, but " + e.getMessage(), e);
    }
  }

  /**
   * @throws UncheckedIOException if the port cannot be bound
   */
  public void start() {
    try {
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Expected to bind the gRPC port, but "
              + e.getMessage()
              + ". Free the port or change grpcHost/grpcPort",
          e);
    }
  }

  /** The bound port (the real one when configured as 0). */
  public int port() {
    return server.getPort();
  }

  /** Updates the per-service health from a new topology. */
  public void onTopology(ClusterTopology topology) {
    ServingStatus status =
        topology.hasAllLeaders() ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
    health.setStatus(LedgerServiceGrpc.SERVICE_NAME, status);
    health.setStatus(AdminServiceGrpc.SERVICE_NAME, status);
  }

  @Override
  public void close() {
    health.enterTerminalState();
    server.shutdown();
    try {
      if (!server.awaitTermination(SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        server.shutdownNow();
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
