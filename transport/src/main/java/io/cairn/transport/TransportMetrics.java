package io.cairn.transport;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Meters of one member's messaging service. Every meter carries the tag {@code node} (the local
 * node id).
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>cairn.transport.messages.sent</td><td>counter</td><td>operation, result</td>
 *       <td>frames this member tried to send; result ok (handed to the network), rejected
 *       (refused locally: unknown member, too large, closed), unreachable (no connection)</td></tr>
 *   <tr><td>cairn.transport.messages.received</td><td>counter</td><td>operation, result</td>
 *       <td>frames received; for requests and messages result is ok, no-handler or rejected
 *       (the handler's executor refused the task); for responses it is the response's status
 *       (ok, no-handler, handler-failure) or late (no request waits for it any more)</td></tr>
 *   <tr><td>cairn.transport.bytes.sent</td><td>counter</td><td></td>
 *       <td>bytes of frames written, headers included</td></tr>
 *   <tr><td>cairn.transport.bytes.received</td><td>counter</td><td></td>
 *       <td>bytes of well-formed frames read, headers included</td></tr>
 *   <tr><td>cairn.transport.request.latency</td><td>timer</td><td>result</td>
 *       <td>time from sending a request to its outcome: ok, no-handler, handler-failure,
 *       timeout, unreachable, rejected</td></tr>
 *   <tr><td>cairn.transport.frames.invalid</td><td>counter</td><td></td>
 *       <td>connections closed because a frame was malformed or over maxFrameSizeBytes</td></tr>
 *   <tr><td>cairn.transport.handshakes.failed</td><td>counter</td><td>role</td>
 *       <td>TLS connections refused: role client (a member this one dialled: handshake failed or
 *       the member refused this one's certificate), role server (a connection this member
 *       accepted failed its handshake; a peer that closes before the handshake is not counted)
 *       </td></tr>
 * </table>
 *
 * Tag {@code operation} is one of request, response, message; tag {@code role} is this member's
 * side of the TLS connection.
 */
public final class TransportMetrics {

  /** Counter; tags node, operation, result: frames this member tried to send. */
  public static final String MESSAGES_SENT = "cairn.transport.messages.sent";

  /** Counter; tags node, operation, result: frames this member received. */
  public static final String MESSAGES_RECEIVED = "cairn.transport.messages.received";

  /** Counter, bytes; tag node: bytes of frames written, headers included. */
  public static final String BYTES_SENT = "cairn.transport.bytes.sent";

  /** Counter, bytes; tag node: bytes of well-formed frames read, headers included. */
  public static final String BYTES_RECEIVED = "cairn.transport.bytes.received";

  /** Timer; tags node, result: time from sending a request to its outcome. */
  public static final String REQUEST_LATENCY = "cairn.transport.request.latency";

  /** Counter; tag node: connections closed for a malformed or oversize frame. */
  public static final String FRAMES_INVALID = "cairn.transport.frames.invalid";

  /** Counter; tags node, role (client, server): TLS connections refused. */
  public static final String HANDSHAKES_FAILED = "cairn.transport.handshakes.failed";

  /** Value of the {@code role} tag: this member's side of a TLS connection. */
  public enum TlsRole {
    CLIENT,
    SERVER;

    public String tagValue() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Value of the {@code operation} tag. */
  public enum Operation {
    REQUEST,
    RESPONSE,
    MESSAGE;

    public String tagValue() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Value of the {@code result} tag. */
  public enum Result {
    OK,
    REJECTED,
    UNREACHABLE,
    TIMEOUT,
    NO_HANDLER,
    HANDLER_FAILURE,
    LATE;

    public String tagValue() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  private final Counter[][] sent;
  private final Counter[][] received;
  private final Timer[] latency;
  private final Counter bytesSent;
  private final Counter bytesReceived;
  private final Counter framesInvalid;
  private final Counter[] handshakesFailed;

  public TransportMetrics(MeterRegistry registry, int localNodeId) {
    Objects.requireNonNull(registry, "registry");
    Tags node = Tags.of("node", Integer.toString(localNodeId));
    Operation[] operations = Operation.values();
    Result[] results = Result.values();
    sent = new Counter[operations.length][results.length];
    received = new Counter[operations.length][results.length];
    latency = new Timer[results.length];
    for (Operation operation : operations) {
      for (Result result : results) {
        Tags tags = node.and("operation", operation.tagValue(), "result", result.tagValue());
        sent[operation.ordinal()][result.ordinal()] =
            Counter.builder(MESSAGES_SENT)
                .description("Frames this member tried to send")
                .tags(tags)
                .register(registry);
        received[operation.ordinal()][result.ordinal()] =
            Counter.builder(MESSAGES_RECEIVED)
                .description("Frames this member received")
                .tags(tags)
                .register(registry);
      }
    }
    for (Result result : results) {
      latency[result.ordinal()] =
          Timer.builder(REQUEST_LATENCY)
              .description("Time from sending a request to its outcome")
              .tags(node.and("result", result.tagValue()))
              .register(registry);
    }
    bytesSent =
        Counter.builder(BYTES_SENT)
            .baseUnit("bytes")
            .tags(node)
            .description("Bytes written")
            .register(registry);
    bytesReceived =
        Counter.builder(BYTES_RECEIVED)
            .baseUnit("bytes")
            .tags(node)
            .description("Bytes read")
            .register(registry);
    framesInvalid =
        Counter.builder(FRAMES_INVALID)
            .tags(node)
            .description("Connections closed because of a malformed or oversize frame")
            .register(registry);
    TlsRole[] roles = TlsRole.values();
    handshakesFailed = new Counter[roles.length];
    for (TlsRole role : roles) {
      handshakesFailed[role.ordinal()] =
          Counter.builder(HANDSHAKES_FAILED)
              .tags(node.and("role", role.tagValue()))
              .description("TLS connections refused")
              .register(registry);
    }
  }

  public void sent(Operation operation, Result result) {
    sent[operation.ordinal()][result.ordinal()].increment();
  }

  public void received(Operation operation, Result result) {
    received[operation.ordinal()][result.ordinal()].increment();
  }

  public void bytesSent(int bytes) {
    bytesSent.increment(bytes);
  }

  public void bytesReceived(int bytes) {
    bytesReceived.increment(bytes);
  }

  public void requestCompleted(Result result, long elapsedNanos) {
    latency[result.ordinal()].record(Math.max(0, elapsedNanos), TimeUnit.NANOSECONDS);
  }

  public void invalidFrame() {
    framesInvalid.increment();
  }

  public void handshakeFailed(TlsRole role) {
    handshakesFailed[role.ordinal()].increment();
  }

  /** The {@code result} tag matching a request's failure. */
  public static Result resultOf(Throwable failure) {
    if (failure == null) {
      return Result.OK;
    }
    if (failure instanceof MessagingException.Timeout) {
      return Result.TIMEOUT;
    }
    if (failure instanceof MessagingException.NoRemoteHandler) {
      return Result.NO_HANDLER;
    }
    if (failure instanceof MessagingException.RemoteHandlerFailure) {
      return Result.HANDLER_FAILURE;
    }
    if (failure instanceof MessagingException.Rejected) {
      return Result.REJECTED;
    }
    return Result.UNREACHABLE;
  }
}
