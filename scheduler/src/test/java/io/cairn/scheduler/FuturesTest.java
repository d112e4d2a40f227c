package io.cairn.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class FuturesTest {

  @Test
  void shouldFindTheFailureBehindNestedWrappers() {
    IOException cause = new IOException("disk full");

    Throwable wrapped = new CompletionException(new ExecutionException(cause));

    assertThat(Futures.unwrap(wrapped)).isSameAs(cause);
  }

  @Test
  void shouldReturnTheFailureOfAFailedFutureAsJoinThrowsIt() {
    IllegalStateException cause = new IllegalStateException("closed");
    CompletableFuture<Void> failed = CompletableFuture.<Void>failedFuture(cause).thenApply(v -> v);

    Throwable thrown = failed.handle((v, e) -> e).join();

    assertThat(thrown).isInstanceOf(CompletionException.class);
    assertThat(Futures.unwrap(thrown)).isSameAs(cause);
  }

  @Test
  void shouldKeepAWrapperWithoutCauseAndAnyOtherFailure() {
    CompletionException bare = new CompletionException("no cause", null);
    IOException plain = new IOException("plain");

    assertThat(Futures.unwrap(bare)).isSameAs(bare);
    assertThat(Futures.unwrap(plain)).isSameAs(plain);
  }
}
