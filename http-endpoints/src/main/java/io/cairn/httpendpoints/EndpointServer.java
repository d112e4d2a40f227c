package io.cairn.httpendpoints;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.cairn.scheduler.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP endpoints on the JDK's {@link HttpServer}: a {@link Routes routing table} served on {@code
 * host:port} by the caller's executor, errors answered as RFC 7807 problem details; with {@link
 * Builder#tls} the JDK's {@link HttpsServer} serves them, and a plaintext request gets no answer.
 *
 * <pre>{@code
 * EndpointServer server =
 *     EndpointServer.builder("gateway", routes)
 *         .bind(host, port, "httpHost/httpPort")
 *         .executor(httpWorkers)
 *         .build();
 * server.start();          // binds; UncheckedIOException naming the address and the keys
 * ...
 * server.close();          // then the caller shuts its executor down
 * }</pre>
 *
 * <p>Nothing is bound before {@link #start()}; {@link #close()} releases the port also when the
 * server never started or its bind failed.
 */
public final class EndpointServer implements AutoCloseable {
  /** The largest request body read when the builder is not told otherwise. */
  public static final int DEFAULT_MAX_BODY_BYTES = 16 * 1024;

  private final HttpServer server;
  private final String owner;
  private final String host;
  private final int port;
  private final String configKeys;
  private final int backlog;
  private boolean closed;

  private EndpointServer(Builder builder) {
    this.owner = builder.owner;
    this.host = Objects.requireNonNull(builder.host, "host (call bind)");
    this.port = builder.port;
    this.configKeys = builder.configKeys;
    this.backlog = builder.backlog;
    try {
      // bound in start(): a bound server that never started keeps its port until the JVM exits
      if (builder.tls == null) {
        this.server = HttpServer.create();
      } else {
        HttpsServer https = HttpsServer.create();
        // The context's default parameters (protocols, client authentication) apply.
        https.setHttpsConfigurator(new HttpsConfigurator(builder.tls));
        this.server = https;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Expected to create the " + owner + "'s HTTP server, but " + e.getMessage(), e);
    }
    server.setExecutor(Objects.requireNonNull(builder.executor, "executor"));
    server.createContext(
        "/",
        new Dispatcher(
            builder.routes,
            builder.maxBodyBytes,
            owner,
            builder.log,
            builder.clock,
            builder.observer,
            builder.interceptor));
  }

  /**
   * @param owner what serves the endpoints, in messages ("the gateway failed", "the broker's HTTP
   *     endpoints")
   */
  public static Builder builder(String owner, Routes routes) {
    return new Builder(owner, routes);
  }

  /**
   * Binds {@code host:port} and starts serving.
   *
   * @throws UncheckedIOException naming the address and the keys that set it if it cannot be bound
   *     (the server is closed then)
   */
  public synchronized void start() {
    if (closed) {
      throw new IllegalStateException(
          "Expected an open server to start, but the " + owner + "'s HTTP endpoints are closed");
    }
    try {
      server.bind(new InetSocketAddress(host, port), backlog);
    } catch (IOException e) {
      close();
      throw new UncheckedIOException(
          "Expected to bind the "
              + owner
              + "'s HTTP endpoints to "
              + host
              + ":"
              + port
              + ", but "
              + e.getMessage()
              + ". Free the port or change "
              + configKeys,
          e);
    }
    server.start();
  }

  /** The bound address (with the real port when 0 was asked for); null before {@link #start()}. */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  /** Stops serving at once (the exchanges are short); the caller's executor is left running. */
  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      server.stop(0);
    }
  }

  /** The settings of a server; {@link #bind} and {@link #executor} are required. */
  public static final class Builder {
    private final String owner;
    private final Routes routes;
    private String host;
    private int port;
    private String configKeys;
    private Executor executor;
    private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private int backlog;
    private Logger log = LoggerFactory.getLogger(EndpointServer.class);
    private Clock clock;
    private RequestObserver observer;
    private SSLContext tls;
    private RouteInterceptor interceptor;

    private Builder(String owner, Routes routes) {
      this.owner = Objects.requireNonNull(owner, "owner");
      this.routes = Objects.requireNonNull(routes, "routes");
    }

    /**
     * Where to listen.
     *
     * @param port 0 for an ephemeral port ({@link EndpointServer#address()} tells it)
     * @param configKeys the configuration that sets host and port, named when the bind fails
     *     ({@code "management.host/management.port"})
     */
    public Builder bind(String host, int port, String configKeys) {
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException(
            "Expected a port in [0, 65535], but was " + port + " (" + configKeys + ")");
      }
      this.host = Objects.requireNonNull(host, "host");
      this.port = port;
      this.configKeys = Objects.requireNonNull(configKeys, "configKeys");
      return this;
    }

    /** Runs the handlers; the caller owns it and shuts it down after {@link #close()}. */
    public Builder executor(Executor executor) {
      this.executor = executor;
      return this;
    }

    /** The largest request body {@link Exchange#body()} reads (413 beyond). */
    public Builder maxBodyBytes(int maxBodyBytes) {
      if (maxBodyBytes < 0) {
        throw new IllegalArgumentException("Expected maxBodyBytes >= 0, but was " + maxBodyBytes);
      }
      this.maxBodyBytes = maxBodyBytes;
      return this;
    }

    /** Connections waiting to be accepted; 0 (the default) leaves it to the system. */
    public Builder backlog(int backlog) {
      this.backlog = backlog;
      return this;
    }

    /**
     * Where problems and failures are logged (the owner's logger, so that they appear under its
     * name); the default is this class's.
     */
    public Builder logger(Logger log) {
      this.log = Objects.requireNonNull(log, "log");
      return this;
    }

    /** Has every request observed, timed on {@code clock}. */
    public Builder observer(Clock clock, RequestObserver observer) {
      this.clock = Objects.requireNonNull(clock, "clock");
      this.observer = Objects.requireNonNull(observer, "observer");
      return this;
    }

    /**
     * Runs {@code interceptor} in place of every matched route's handler (it calls the handler or
     * answers itself): where access is checked and requests are audited.
     */
    public Builder interceptor(RouteInterceptor interceptor) {
      this.interceptor = Objects.requireNonNull(interceptor, "interceptor");
      return this;
    }

    /**
     * Serves HTTPS with {@code context} (its key manager may change certificates while serving);
     * without it, plain HTTP.
     */
    public Builder tls(SSLContext context) {
      this.tls = Objects.requireNonNull(context, "context");
      return this;
    }

    /** A server, not bound yet. */
    public EndpointServer build() {
      return new EndpointServer(this);
    }
  }
}
