package io.cairn.backups3.testserver;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * An HTTP/1.1 proxy on 127.0.0.1 between a client and an S3 server, for tests: it relays requests
 * and responses (keep-alive, {@code Expect: 100-continue}, fixed-length and chunked bodies),
 * records every request, counts requests in flight, can strip request headers, and injects faults
 * chosen per request by a {@link FaultPlan}: a 500 or 503 answer instead of the server's, a slow
 * answer, or the connection cut in the middle of the request or response body. It can also hold
 * answers until the test releases them ({@link #holdAnswers}). One thread per connection; every
 * read has a timeout, so nothing hangs past a test.
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
   * @param headers the names of its headers, lower case
   */
  public record Request(String method, String target, long contentLength, Set<String> headers) {
    /** The path without the query. */
    public String path() {
      int q = target.indexOf('?');
      return q < 0 ? target : target.substring(0, q);
    }
  }

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
  private static final int HEAD_MAX_BYTES = 64 * 1024;

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
            new Request(head.method(), head.target(), head.contentLength(), head.headerNames());
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
      boolean counted,
      boolean hold,
      InputStream fromClient,
      OutputStream toClient,
      InputStream fromOrigin,
      OutputStream toOrigin)
      throws IOException {
    if (fault == Fault.ANSWER_500 || fault == Fault.ANSWER_503) {
      faults.incrementAndGet();
      if (!request.expectsContinue()) {
        Body.relay(request, fromClient, OutputStream.nullOutputStream(), Long.MAX_VALUE);
      }
      answerError(toClient, fault == Fault.ANSWER_500 ? 500 : 503);
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

  private static void answerError(OutputStream toClient, int status) throws IOException {
    String code = status == 503 ? "SlowDown" : "InternalError";
    String body =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
            + code
            + "</Code><Message>injected by the test proxy</Message></Error>";
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String head =
        "HTTP/1.1 "
            + status
            + (status == 503 ? " Service Unavailable" : " Internal Server Error")
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

  // ------------------------------------------------------------------------ HTTP framing

  /** A request or response head: start line and headers. */
  private record Head(String startLine, List<String[]> headers) {

    static Head read(InputStream in) throws IOException {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      int last4 = 0;
      while (last4 != 0x0d0a0d0a) {
        int b = in.read();
        if (b < 0) {
          if (bytes.size() == 0) {
            return null;
          }
          throw new IOException("Connection ended inside an HTTP head");
        }
        bytes.write(b);
        last4 = (last4 << 8) | b;
        if (bytes.size() > HEAD_MAX_BYTES) {
          throw new IOException("HTTP head longer than " + HEAD_MAX_BYTES);
        }
      }
      String[] lines = bytes.toString(StandardCharsets.ISO_8859_1).split("\r\n");
      List<String[]> headers = new ArrayList<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        if (colon > 0) {
          headers.add(
              new String[] {
                lines[i].substring(0, colon).trim(), lines[i].substring(colon + 1).trim()
              });
        }
      }
      return new Head(lines[0], headers);
    }

    String header(String name) {
      for (String[] h : headers) {
        if (h[0].equalsIgnoreCase(name)) {
          return h[1];
        }
      }
      return null;
    }

    String method() {
      return startLine.split(" ", 3)[0];
    }

    Set<String> headerNames() {
      Set<String> names = new java.util.HashSet<>();
      headers.forEach(h -> names.add(h[0].toLowerCase(Locale.ROOT)));
      return Set.copyOf(names);
    }

    String target() {
      String[] parts = startLine.split(" ", 3);
      return parts.length > 1 ? parts[1] : "";
    }

    int status() {
      String[] parts = startLine.split(" ", 3);
      try {
        return parts.length > 1 ? Integer.parseInt(parts[1]) : -1;
      } catch (NumberFormatException e) {
        return -1;
      }
    }

    long contentLength() {
      String value = header("Content-Length");
      return value == null ? (chunked() ? -1 : 0) : Long.parseLong(value);
    }

    boolean hasLength() {
      return header("Content-Length") != null || chunked();
    }

    boolean chunked() {
      String value = header("Transfer-Encoding");
      return value != null && value.toLowerCase(Locale.ROOT).contains("chunked");
    }

    boolean expectsContinue() {
      String value = header("Expect");
      return value != null && value.equalsIgnoreCase("100-continue");
    }

    boolean closes() {
      String value = header("Connection");
      return value != null && value.equalsIgnoreCase("close");
    }

    byte[] bytes(Set<String> stripped) {
      StringBuilder text = new StringBuilder(startLine).append("\r\n");
      for (String[] h : headers) {
        if (!stripped.contains(h[0].toLowerCase(Locale.ROOT))) {
          text.append(h[0]).append(": ").append(h[1]).append("\r\n");
        }
      }
      return text.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }
  }

  /** Copies a message body framed by its head. */
  private static final class Body {

    /** Copies at most {@code limit} bytes of the body (the whole body when it is shorter). */
    static void relay(Head head, InputStream in, OutputStream out, long limit) throws IOException {
      if (head.chunked()) {
        relayChunked(in, out, limit);
      } else if (head.header("Content-Length") != null) {
        copy(in, out, Math.min(limit, head.contentLength()));
      } else if (head.startLine().startsWith("HTTP/")) {
        copy(in, out, limit); // until the server closes
      }
    }

    private static void relayChunked(InputStream in, OutputStream out, long limit)
        throws IOException {
      long copied = 0;
      while (true) {
        String sizeLine = line(in);
        out.write((sizeLine + "\r\n").getBytes(StandardCharsets.US_ASCII));
        int semicolon = sizeLine.indexOf(';');
        long size =
            Long.parseLong(
                (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
        if (size == 0) {
          String trailer;
          do {
            trailer = line(in);
            out.write((trailer + "\r\n").getBytes(StandardCharsets.US_ASCII));
          } while (!trailer.isEmpty());
          return;
        }
        long take = Math.min(size, limit - copied);
        copy(in, out, take);
        copied += take;
        if (take < size) {
          return;
        }
        copy(in, out, 2); // CRLF after the chunk
      }
    }

    private static String line(InputStream in) throws IOException {
      StringBuilder text = new StringBuilder();
      int b;
      while ((b = in.read()) >= 0) {
        if (b == '\n') {
          int length = text.length();
          return length > 0 && text.charAt(length - 1) == '\r'
              ? text.substring(0, length - 1)
              : text.toString();
        }
        text.append((char) b);
        if (text.length() > HEAD_MAX_BYTES) {
          throw new IOException("Chunk line longer than " + HEAD_MAX_BYTES);
        }
      }
      throw new IOException("Connection ended inside a chunked body");
    }

    private static void copy(InputStream in, OutputStream out, long bytes) throws IOException {
      byte[] buffer = new byte[64 * 1024];
      long left = bytes;
      while (left > 0) {
        int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
        if (n < 0) {
          if (bytes == Long.MAX_VALUE) {
            return;
          }
          throw new IOException("Connection ended " + left + " bytes before the body's end");
        }
        out.write(buffer, 0, n);
        left -= n;
      }
    }
  }
}
