package io.cairn.transport.netty;

import io.cairn.transport.MessagingService;
import io.cairn.transport.MessagingServiceTestKit;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.io.TempDir;

/** The messaging contract over mutual TLS on loopback: every member has a certificate of one CA. */
class NettyTlsMessagingServiceTest extends MessagingServiceTestKit {

  private final ExecutorService handlerThreads = Executors.newFixedThreadPool(2);
  @TempDir Path dir;

  @Override
  protected List<MessagingService> createMembers(int count) {
    TransportPki pki = new TransportPki(dir, "Cairn test CA");
    List<NettyMessagingService> services = new ArrayList<>();
    for (int nodeId = 0; nodeId < count; nodeId++) {
      NettyMessagingService service =
          NettyTestCluster.newService(
              NettyTestCluster.config(nodeId, MAX_FRAME_SIZE_BYTES, 0),
              new SimpleMeterRegistry(),
              pki.tls(pki.write("broker-" + nodeId)));
      service.start();
      services.add(service);
    }
    NettyTestCluster.introduce(services);
    return List.copyOf(services);
  }

  @Override
  protected Executor handlerExecutor() {
    return handlerThreads;
  }

  @Override
  protected <T> T await(CompletableFuture<T> future) {
    // Longer than LONG_TIMEOUT, so that a request that times out says so itself.
    try {
      future.get(60, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("Expected the future to complete within 60 s, but it did not", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("Interrupted while waiting", e);
    } catch (ExecutionException e) {
      // reported by valueOrCause below
    }
    return valueOrCause(future);
  }

  @Override
  protected void afterMembersClosed() {
    handlerThreads.shutdownNow();
  }
}
