package io.cairn.gateway.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ServerCall;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Events kept while a call is checked reach the real listener in order, one at a time. */
final class DeferredListenerTest {

  /** Records every event; fails when two arrive at once. */
  private static final class Recording extends ServerCall.Listener<String> {
    final List<String> events = new CopyOnWriteArrayList<>();
    final AtomicInteger inside = new AtomicInteger();
    final AtomicInteger overlaps = new AtomicInteger();

    private void record(String event) {
      if (inside.incrementAndGet() > 1) {
        overlaps.incrementAndGet();
      }
      events.add(event);
      inside.decrementAndGet();
    }

    @Override
    public void onMessage(String message) {
      record("message " + message);
    }

    @Override
    public void onHalfClose() {
      record("half-close");
    }

    @Override
    public void onCancel() {
      record("cancel");
    }

    @Override
    public void onComplete() {
      record("complete");
    }

    @Override
    public void onReady() {
      record("ready");
    }
  }

  @Test
  void shouldHandOverWhatWasKeptInOrderThenPassEventsThrough() {
    DeferredListener<String> deferred = new DeferredListener<>();
    Recording real = new Recording();

    deferred.onReady();
    deferred.onMessage("a");
    deferred.onHalfClose();
    assertThat(real.events).isEmpty();

    deferred.start(real);
    deferred.onCancel();
    deferred.onComplete();

    assertThat(real.events)
        .containsExactly("ready", "message a", "half-close", "cancel", "complete");
  }

  @Test
  void shouldTakeOneListenerOnly() {
    DeferredListener<String> deferred = new DeferredListener<>();
    deferred.start(new Recording());

    assertThatThrownBy(() -> deferred.start(new Recording()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Expected one listener, but it was set already");
  }

  @Test
  void shouldNeverDeliverTwoEventsAtOnceWhileEventsArriveDuringTheHandOver() throws Exception {
    DeferredListener<String> deferred = new DeferredListener<>();
    Recording real = new Recording();
    int count = 20_000;
    for (int i = 0; i < 100; i++) {
      deferred.onMessage("kept-" + i);
    }
    CountDownLatch go = new CountDownLatch(1);
    Thread transport =
        new Thread(
            () -> {
              try {
                go.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
              }
              for (int i = 0; i < count; i++) {
                deferred.onMessage("live-" + i);
              }
            },
            "deferred-listener-test-transport");
    transport.start();

    go.countDown();
    deferred.start(real);
    transport.join(TimeUnit.MINUTES.toMillis(1));

    assertThat(transport.isAlive()).isFalse();
    assertThat(real.overlaps).hasValue(0);
    assertThat(real.events).hasSize(100 + count);
    assertThat(real.events.subList(0, 100)).allMatch(event -> event.startsWith("message kept-"));
    List<String> live = real.events.subList(100, real.events.size());
    for (int i = 0; i < count; i++) {
      assertThat(live.get(i)).isEqualTo("message live-" + i);
    }
  }
}
