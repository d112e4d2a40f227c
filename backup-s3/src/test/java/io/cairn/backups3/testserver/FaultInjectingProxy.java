package io.cairn.backups3.testserver;

import io.cairn.backups3.testserver.HttpFraming.Body;
import io.cairn.backups3.testserver.HttpFraming.Head;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * An HTTP/1.1 proxy on 127.0.0.1 between a client and an S3 server, for tests: it relays requests
 * and responses (keep-alive, {@code Expect: 100-continue}, fixed-length and chunked bodies),
 * records every request, counts requests in flight, can strip request headers, and injects faults
 * chosen per request by a {@link FaultPlan}: a 500 or 503 answer instead of the server's, a slow
 * answer, or the connection cut in the middle of the request or response body. It can also hold
 * answers until the test releases them ({@link #holdAnswers}), and answer in the server's place
 * what a test emulates ({@link #refuse}: an S3 error the server would not give). One thread per
 * connection; every read has a timeout, so nothing hangs past a test.
 */
public final class FaultInjectingProxy implements AutoCloseable {

  /** What to do with one request. */
  public enum Fault {
    NONE,
    ANSWER_500,
    ANSWER_503,
    SLOW_RESPONSE,
    CUT_REQUEST_BODY,
    CUT_RESPONSE_BODY,
    /** The server handles the request, but its whole response is lost with the connection. */
    DROP_RESPONSE
  }

  /**
   * One request as the proxy saw it.
   *
   * @param headerValues its headers, names in lower case (the last value of a repeated one)
   */
  public record Request(
      String method, String target, long contentLength, Map<String, String> headerValues) {
    /** The names of its headers, lower case. */
    public Set<String> headers() {
      return headerValues.keySet();
    }

    /** A header's value, or null. */
    public String header(String lowerCaseName) {
      return headerValues.get(lowerCaseName);
    }

    /** The path without the query. */
    public String path() {
      int q = target.indexOf('?');
      return q < 0 ? target : target.substring(0, q);
    }

    /** The query, or "". */
    public String query() {
      int q = target.indexOf('?');
      return q < 0 ? "" : target.substring(q + 1);
    }
  }

  /** An S3 error answered instead of forwarding a request. */
  public record Refusal(int status, String code, String message) {}

  /** Chooses the fault of each request. Called from connection threads. */
  @FunctionalInterface
  public interface FaultPlan {
    Fault decide(Request request);

    FaultPlan NONE = request -> Fault.NONE;

    /** {@code fault} for the first {@code count} requests matching {@code which}, then none. */
    static FaultPlan first(int count, Predicate<Request> which, Fault fault) {
      AtomicInteger left = new AtomicInteger(count);
      return request -> which.test(request) && left.getAndDecrement() > 0 ? fault : Fault.NONE;
    }
  }

  private static final int SOCKET_TIMEOUT_MS = 60_000;

  private final URI upstream;
  private final ServerSocket server;
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "fault-proxy");
            t.setDaemon(true);
            return t;
          });
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final CountDownLatch closing = new CountDownLatch(1);
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlightMatching = new AtomicInteger();
  private final AtomicInteger inFlightMatching = new AtomicInteger();
  private final AtomicInteger faults = new AtomicInteger();
  private volatile FaultPlan plan = FaultPlan.NONE;
  private volatile Function<Request, Optional<Refusal>> refusals = request -> Optional.empty();
  private volatile Set<String> strippedHeaders = Set.of();
  private volatile Predicate<Request> counted = request -> false;
  private volatile Duration slowResponseDelay = Duration.ofSeconds(2);
  private volatile int holdUntilConcurrent;
  private volatile Duration holdAtMost = Duration.ZERO;
  private volatile CountDownLatch concurrentReached = new CountDownLatch(0);
  private volatile Predicate<Request> held = request -> false;
  private volatile Duration heldAtMost = Duration.ZERO;
  private volatile CountDownLatch heldRelease = new CountDownLatch(0);
  private final AtomicInteger holding = new AtomicInteger();

  public FaultInjectingProxy(URI upstream) throws IOException {
    this.upstream = upstream;
    this.server = new ServerSocket();
    server.bind(new InetSocketAddress("127.0.0.1", 0));
    threads.execute(this::acceptLoop);
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  public FaultInjectingProxy plan(FaultPlan value) {
    this.plan = value;
    return this;
  }

  /**
   * Answers {@code decide}'s refusal instead of forwarding, for requests it refuses; it sees every
   * request first, in order, so it can also record what it needs.
   */
  public FaultInjectingProxy refuse(Function<Request, Optional<Refusal>> decide) {
    this.refusals = decide;
    return this;
  }

  /** Request headers (case-insensitive) removed before forwarding. */
  public FaultInjectingProxy stripRequestHeaders(Set<String> names) {
    Set<String> lower = ConcurrentHashMap.newKeySet();
    names.forEach(n -> lower.add(n.toLowerCase(Locale.ROOT)));
    this.strippedHeaders = lower;
    return this;
  }

  public FaultInjectingProxy slowResponseDelay(Duration value) {
    this.slowResponseDelay = value;
    return this;
  }

  /** Tracks the most requests matching {@code predicate} in flight at once. */
  public FaultInjectingProxy countConcurrent(Predicate<Request> predicate) {
    this.counted = predicate;
    return this;
  }

  /**
   * Holds the answer of every counted request until {@code count} counted requests have been in
   * flight at once, so a test of concurrency does not depend on how threads are scheduled. If that
   * does not happen within {@code atMost}, nothing is held any more (and the test sees the lower
   * count). Set it before the requests are sent.
   */
  public FaultInjectingProxy holdCountedUntilConcurrent(int count, Duration atMost) {
    this.holdAtMost = atMost;
    this.holdUntilConcurrent = count;
    this.concurrentReached = new CountDownLatch(1);
    return this;
  }

  /**
   * Holds the answer of every request matching {@code which} (the server has answered; nothing of
   * it reaches the client) until {@link #releaseHeld()}, at most {@code atMost}, or the proxy
   * closes. Set it before the requests are sent; it replaces an earlier hold.
   */
  public FaultInjectingProxy holdAnswers(Predicate<Request> which, Duration atMost) {
    this.heldAtMost = atMost;
    this.heldRelease = new CountDownLatch(1);
    this.held = which;
    return this;
  }

  /** Lets the held answers go, and holds no more. */
  public void releaseHeld() {
    held = request -> false;
    heldRelease.countDown();
  }

  /** Answers held right now. */
  public int heldAnswers() {
    return holding.get();
  }

  /** Requests matching {@link #countConcurrent} in flight right now. */
  public int concurrentCounted() {
    return inFlightMatching.get();
  }

  public List<Request> requests() {
    return List.copyOf(requests);
  }

  public void clearRequests() {
    requests.clear();
  }

  public int maxConcurrentCounted() {
    return maxInFlightMatching.get();
  }

  public int faultsInjected() {
    return faults.get();
  }

  @Override
  public void close() throws IOException {
    closing.countDown();
    heldRelease.countDown();
    server.close();
    for (Socket socket : sockets) {
      closeQuietly(socket);
    }
    threads.shutdownNow();
  }

  // ---------------------------------------------------------------------------- relaying

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        sockets.add(client);
        threads.execute(() -> serve(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket client) {
    Socket origin = new Socket();
    sockets.add(origin);
    try {
      client.setSoTimeout(SOCKET_TIMEOUT_MS);
      origin.connect(new InetSocketAddress(upstream.getHost(), upstream.getPort()), 5000);
      origin.setSoTimeout(SOCKET_TIMEOUT_MS);
      InputStream fromClient = client.getInputStream();
      OutputStream toClient = client.getOutputStream();
      InputStream fromOrigin = origin.getInputStream();
      OutputStream toOrigin = origin.getOutputStream();
      while (true) {
        Head head = Head.read(fromClient);
        if (head == null) {
          return;
        }
        Request request =
            new Request(head.method(), head.target(), head.contentLength(), head.headerValues());
        requests.add(request);
        boolean count = counted.test(request);
        boolean hold = held.test(request);
        if (count) {
          int now = inFlightMatching.incrementAndGet();
          maxInFlightMatching.accumulateAndGet(now, Math::max);
          if (now >= holdUntilConcurrent) {
            concurrentReached.countDown();
          }
        }
        inFlight.incrementAndGet();
        try {
          if (!exchange(
              head,
              plan.decide(request),
              refusals.apply(request),
              count,
              hold,
              fromClient,
              toClient,
              fromOrigin,
              toOrigin)) {
            return;
          }
        } finally {
          inFlight.decrementAndGet();
          if (count) {
            inFlightMatching.decrementAndGet();
          }
        }
      }
    } catch (IOException e) {
      // a peer went away; the connection ends
    } finally {
      cut(client);
      cut(origin);
      sockets.remove(client);
      sockets.remove(origin);
    }
  }

  /** Relays one request and its response; false when the connection must end. */
  private boolean exchange(
      Head request,
      Fault fault,
      Optional<Refusal> refusal,
      boolean counted,
      boolean hold,
      InputStream fromClient,
      OutputStream toClient,
      InputStream fromOrigin,
      OutputStream toOrigin)
      throws IOException {
    if (refusal.isEmpty() && (fault == Fault.ANSWER_500 || fault == Fault.ANSWER_503)) {
      faults.incrementAndGet();
      refusal =
          Optional.of(
              fault == Fault.ANSWER_500
                  ? new Refusal(500, "InternalError", "injected by the test proxy")
                  : new Refusal(503, "SlowDown", "injected by the test proxy"));
    }
    if (refusal.isPresent()) {
      if (!request.expectsContinue()) {
        Body.relay(request, fromClient, OutputStream.nullOutputStream(), Long.MAX_VALUE);
      }
      answerError(toClient, refusal.get());
      return false;
    }
    toOrigin.write(request.bytes(strippedHeaders));
    toOrigin.flush();
    if (request.expectsContinue()) {
      Head interim = Head.read(fromOrigin);
      if (interim == null) {
        return false;
      }
      toClient.write(interim.bytes(Set.of()));
      toClient.flush();
      if (interim.status() != 100) {
        // The server answered without wanting the body; that answer is the response.
        Body.relay(interim, fromOrigin, toClient, Long.MAX_VALUE);
        return !interim.closes() && !request.closes();
      }
    }
    if (fault == Fault.CUT_REQUEST_BODY && request.contentLength() > 1) {
      faults.incrementAndGet();
      Body.relay(request, fromClient, toOrigin, request.contentLength() / 2);
      return false;
    }
    Body.relay(request, fromClient, toOrigin, Long.MAX_VALUE);
    toOrigin.flush();
    Head response = Head.read(fromOrigin);
    while (response != null && response.status() == 100) {
      response = Head.read(fromOrigin); // a 100 after the body: drop it
    }
    if (response == null) {
      return false;
    }
    if (fault == Fault.DROP_RESPONSE) {
      faults.incrementAndGet();
      return false;
    }
    if (counted && !holdUntilConcurrentReached()) {
      return false;
    }
    if (hold && !holdUntilReleased()) {
      return false;
    }
    if (fault == Fault.SLOW_RESPONSE) {
      faults.incrementAndGet();
      try {
        if (closing.await(slowResponseDelay.toMillis(), TimeUnit.MILLISECONDS)) {
          return false;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    toClient.write(response.bytes(Set.of()));
    boolean bodyless =
        request.method().equals("HEAD") || response.status() == 204 || response.status() == 304;
    if (fault == Fault.CUT_RESPONSE_BODY && !bodyless && response.contentLength() > 1) {
      faults.incrementAndGet();
      Body.relay(response, fromOrigin, toClient, response.contentLength() / 2);
      toClient.flush();
      return false;
    }
    if (!bodyless) {
      Body.relay(response, fromOrigin, toClient, Long.MAX_VALUE);
    }
    toClient.flush();
    return !response.closes() && !request.closes() && (bodyless || response.hasLength());
  }

  /** Waits for {@link #holdCountedUntilConcurrent}; false if the proxy is closing. */
  private boolean holdUntilConcurrentReached() {
    CountDownLatch reached = concurrentReached;
    try {
      if (!reached.await(holdAtMost.toMillis(), TimeUnit.MILLISECONDS)) {
        reached.countDown(); // not reached in time: stop holding the others
      }
      return closing.getCount() > 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Waits for {@link #releaseHeld()}; false if the proxy is closing. */
  private boolean holdUntilReleased() {
    CountDownLatch release = heldRelease;
    holding.incrementAndGet();
    try {
      release.await(heldAtMost.toMillis(), TimeUnit.MILLISECONDS);
      return closing.getCount() > 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      holding.decrementAndGet();
    }
  }

  private static void answerError(OutputStream toClient, Refusal refusal) throws IOException {
    String body =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
            + refusal.code()
            + "</Code><Message>"
            + refusal.message()
            + "</Message></Error>";
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String head =
        "HTTP/1.1 "
            + refusal.status()
            + " "
            + refusal.code()
            + "\r\nContent-Type: application/xml\r\nContent-Length: "
            + bytes.length
            + "\r\nConnection: close\r\n\r\n";
    toClient.write(head.getBytes(StandardCharsets.US_ASCII));
    toClient.write(bytes);
    toClient.flush();
  }

  /** Closes with a reset, so the peer sees the connection cut, not a clean end. */
  private static void cut(Socket socket) {
    try {
      if (!socket.isClosed()) {
        socket.setSoLinger(true, 0);
      }
    } catch (IOException e) {
      // closing anyway
    }
    closeQuietly(socket);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // nothing left to do
    }
  }
}
