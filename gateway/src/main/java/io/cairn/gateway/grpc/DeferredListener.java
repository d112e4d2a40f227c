package io.cairn.gateway.grpc;

import io.grpc.ServerCall;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A call's listener while the call is being checked on another thread: the events gRPC delivers
 * meanwhile (a cancellation, readiness; messages wait for the handler's first request) are kept in
 * order and handed to the real listener once it is known, after which events pass straight through.
 * Events are never delivered to the real listener from two threads at once: the thread that sets it
 * drains what was kept until nothing is left, and only then lets gRPC's thread through.
 *
 * @param <Q> the request message
 */
final class DeferredListener<Q> extends ServerCall.Listener<Q> {
  private final Object lock = new Object();
  private List<Consumer<ServerCall.Listener<Q>>> pending = new ArrayList<>();
  private ServerCall.Listener<Q> delegate;

  /** Hands what was kept, then every later event, to {@code listener}; call once. */
  void start(ServerCall.Listener<Q> listener) {
    while (true) {
      List<Consumer<ServerCall.Listener<Q>>> batch;
      synchronized (lock) {
        if (delegate != null) {
          throw new IllegalStateException("Expected one listener, but it was set already");
        }
        if (pending.isEmpty()) {
          delegate = listener;
          pending = null;
          return;
        }
        batch = pending;
        pending = new ArrayList<>();
      }
      batch.forEach(event -> event.accept(listener));
    }
  }

  private void deliver(Consumer<ServerCall.Listener<Q>> event) {
    ServerCall.Listener<Q> listener;
    synchronized (lock) {
      if (delegate == null) {
        pending.add(event);
        return;
      }
      listener = delegate;
    }
    event.accept(listener);
  }

  @Override
  public void onMessage(Q message) {
    deliver(listener -> listener.onMessage(message));
  }

  @Override
  public void onHalfClose() {
    deliver(ServerCall.Listener::onHalfClose);
  }

  @Override
  public void onCancel() {
    deliver(ServerCall.Listener::onCancel);
  }

  @Override
  public void onComplete() {
    deliver(ServerCall.Listener::onComplete);
  }

  @Override
  public void onReady() {
    deliver(ServerCall.Listener::onReady);
  }
}
