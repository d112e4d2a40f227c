package io.cairn.gateway.grpc;

import io.cairn.auth.GatewayOperations;
import io.cairn.auth.Role;
import io.cairn.gateway.security.AccessControl;
import io.cairn.gateway.security.AccessControl.Check;
import io.cairn.gateway.security.AccessControl.Decision;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * In front of every gRPC service but health: reads the {@code authorization} metadata, checks it
 * and the call's operation ({@link GatewayOperations#forGrpcMethod}) with {@link AccessControl},
 * and closes a refused call with UNAUTHENTICATED or PERMISSION_DENIED and the public message. An
 * allowed admin call is audited when it closes (or is cancelled).
 *
 * <p>The server runs calls on netty's event loop (direct executor), and a check may block while the
 * credentials file or the JWKS is read again (up to the JWKS timeout). So with authentication on,
 * every check runs on {@code checks}, a small bounded pool of the gateway's own; the call's events
 * wait in a {@link DeferredListener} meanwhile, and its handler starts there once allowed (the
 * handler itself never blocks). A full pool refuses the call with RESOURCE_EXHAUSTED, nothing done.
 * With authentication off the check cannot block and runs on the event loop.
 */
final class AccessInterceptor implements ServerInterceptor {
  private static final Logger LOG = LoggerFactory.getLogger(AccessInterceptor.class);

  /** The {@code authorization} metadata entry: {@code ApiKey <id>.<secret>}, {@code Bearer ...}. */
  static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final AccessControl access;
  private final Executor checks;

  AccessInterceptor(AccessControl access, Executor checks) {
    this.access = access;
    this.checks = checks;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    Check check =
        access.start(
            AccessControl.GRPC,
            GatewayOperations.forGrpcMethod(call.getMethodDescriptor().getFullMethodName()),
            call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
    String authorization = headers.get(AUTHORIZATION);
    if (!access.enabled()) {
      return proceed(check, check.check(authorization), call, headers, next);
    }
    // the call's context (deadline, cancellation), to start the handler in it on the check's thread
    Context context = Context.current();
    DeferredListener<Q> deferred = new DeferredListener<>();
    try {
      checks.execute(
          () -> {
            ServerCall.Listener<Q> listener;
            try {
              listener =
                  context.call(
                      () -> proceed(check, check.check(authorization), call, headers, next));
            } catch (Exception e) {
              LOG.warn("{} failed before its handler ran", check.operation().name(), e);
              call.close(
                  Status.INTERNAL.withDescription(
                      "Expected to check the credentials of "
                          + check.operation().name()
                          + ", but the gateway failed: "
                          + e),
                  new Metadata());
              listener = new ServerCall.Listener<>() {};
            }
            deferred.start(listener);
          });
    } catch (RejectedExecutionException e) {
      call.close(
          Status.RESOURCE_EXHAUSTED.withDescription(
              "Expected the gateway to check the credentials of "
                  + check.operation().name()
                  + ", but too many calls are waiting for theirs; nothing was done. Send it again"
                  + " later"),
          new Metadata());
      return new ServerCall.Listener<>() {};
    }
    return deferred;
  }

  private <Q, R> ServerCall.Listener<Q> proceed(
      Check check,
      Decision decision,
      ServerCall<Q, R> call,
      Metadata headers,
      ServerCallHandler<Q, R> next) {
    if (decision instanceof AccessControl.Unauthenticated refused) {
      call.close(Status.UNAUTHENTICATED.withDescription(refused.publicMessage()), new Metadata());
      return new ServerCall.Listener<>() {};
    }
    if (decision instanceof AccessControl.Forbidden refused) {
      call.close(Status.PERMISSION_DENIED.withDescription(refused.publicMessage()), new Metadata());
      return new ServerCall.Listener<>() {};
    }
    headers.discardAll(AUTHORIZATION); // the handler has no use for the credential
    if (check.operation().requiredRole() != Role.ADMIN) {
      // not audited: nothing to see when it ends
      return Contexts.interceptCall(Context.current(), call, headers, next);
    }
    ServerCall.Listener<Q> listener =
        Contexts.interceptCall(Context.current(), new Audited<>(call, check), headers, next);
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
      @Override
      public void onCancel() {
        check.completed(false, Status.Code.CANCELLED.name());
        super.onCancel();
      }
    };
  }

  /** Audits the call when it closes, before the client sees its status. */
  private static final class Audited<Q, R>
      extends ForwardingServerCall.SimpleForwardingServerCall<Q, R> {
    private final Check check;

    Audited(ServerCall<Q, R> call, Check check) {
      super(call);
      this.check = check;
    }

    @Override
    public void close(Status status, Metadata trailers) {
      check.completed(status.isOk(), status.getCode().name());
      super.close(status, trailers);
    }
  }
}
