package io.cairn.backups3.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backups3.S3BackupStoreMetrics;
import io.cairn.pacing.Backoff;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When a call has ended: every attempt is a future the test completes by hand, standing for a
 * request on the wire. Retries wait a minute, so none runs during a test.
 */
class S3CallsTest {

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final S3Calls calls =
      new S3Calls(
          3,
          new Backoff(Duration.ofMinutes(1), Duration.ofMinutes(1)),
          scheduler,
          new S3BackupStoreMetrics(new SimpleMeterRegistry()));
  private final List<CompletableFuture<String>> requests = new ArrayList<>();

  @AfterEach
  void close() {
    scheduler.shutdownNow();
  }

  private S3Calls.Call<String> call() {
    return calls.callTracked(
        "GetObject",
        "s3://b/k",
        () -> {
          var request = new CompletableFuture<String>();
          requests.add(request);
          return request;
        });
  }

  @Test
  void shouldEndACancelledCallOnlyWhenItsRequestHasEnded() {
    S3Calls.Call<String> call = call();

    call.result().cancel(true);

    assertThat(call.result()).isCancelled();
    assertThat(call.ended()).as("ended while the request is still on the wire").isNotDone();
    requests.get(0).complete("late answer");
    assertThat(call.ended()).isCompleted();
    assertThat(requests).hasSize(1);
  }

  @Test
  void shouldEndACancelledCallWhoseRequestFailsWithoutRetrying() {
    S3Calls.Call<String> call = call();
    call.result().cancel(true);

    requests.get(0).completeExceptionally(new IOException("Connection reset"));

    assertThat(call.ended()).isCompleted();
    assertThat(requests).hasSize(1);
  }

  @Test
  void shouldEndACallCancelledWhileWaitingToRetryAtOnce() {
    S3Calls.Call<String> call = call();
    requests.get(0).completeExceptionally(new IOException("Connection reset"));
    assertThat(call.ended()).as("ended while a retry is due").isNotDone();

    call.result().cancel(true);

    assertThat(call.ended()).isCompleted();
  }

  @Test
  void shouldEndACallWhenItsResultCompletes() {
    S3Calls.Call<String> succeeded = call();
    S3Calls.Call<String> failed = call();
    S3Calls.Call<String> refused =
        calls.callTracked(
            "GetObject",
            "s3://b/k",
            () -> {
              throw new IllegalStateException("cannot build the request");
            });

    requests.get(0).complete("answer");
    requests.get(1).completeExceptionally(new IllegalArgumentException("400 bad request"));

    assertThat(succeeded.result()).isCompletedWithValue("answer");
    assertThat(succeeded.ended()).isCompleted();
    assertThat(failed.result()).isCompletedExceptionally();
    assertThat(failed.ended()).isCompleted();
    assertThat(refused.result()).isCompletedExceptionally();
    assertThat(refused.ended()).isCompleted();
  }
}
