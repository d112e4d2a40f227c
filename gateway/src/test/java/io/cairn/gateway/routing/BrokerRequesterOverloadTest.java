package io.cairn.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.gateway.GatewayErrorCode;
import io.cairn.gateway.GatewayException;
import io.cairn.gateway.GatewayMetrics;
import io.cairn.gateway.topology.TopologyManager;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.BrokerTopology;
import io.cairn.protocol.api.CommandCodec;
import io.cairn.protocol.api.PartitionReplica;
import io.cairn.protocol.api.ReplicaHealth;
import io.cairn.protocol.api.ReplicaRole;
import io.cairn.protocol.api.TopologyCodec;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.Futures;
import io.cairn.transport.MemberAddress;
import io.cairn.transport.MessagingService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A broker's answer that the gateway's full worker queue refuses to handle: the request was
 * delivered, so only an idempotent call may end in RESOURCE_EXHAUSTED, which clients resend without
 * checking; a command ends in UNAVAILABLE with an unknown outcome.
 */
final class BrokerRequesterOverloadTest {
  private static final Record COMMAND =
      new Record(
          RecordMetadata.builder().command(CheckpointIntent.CREATE).build(),
          new CheckpointValue(1, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP));

  private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
  private final OneLeader messaging = new OneLeader();

  @AfterEach
  void stop() throws InterruptedException {
    timer.shutdownNow();
    timer.awaitTermination(5, TimeUnit.SECONDS);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "false|UNAVAILABLE|Expected room in the gateway's request queue for the answer from broker"
            + " 0 (TakeBackup on partition 1), but it is full or closing; the command may or may"
            + " not have been applied. Check its effect before sending it again",
        "true|RESOURCE_EXHAUSTED|Expected room in the gateway's request queue, but it is full or"
            + " closing. Retry later"
      })
  void shouldAnswerResourceExhaustedOnlyWhenResendingTheDeliveredCallIsSafe(
      boolean idempotent, GatewayErrorCode code, String message) {
    // given a known leader and a worker queue that refuses every task
    GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry(), 9);
    TopologyManager topology =
        new TopologyManager(
            messaging,
            Map.of(0, new MemberAddress("127.0.0.1", 1)),
            Duration.ofMinutes(1),
            Duration.ofSeconds(5),
            timer,
            Runnable::run,
            Clock.system(),
            metrics,
            next -> {});
    assertThat(topology.refresh().join().leaderOf(1)).hasValue(0);
    Executor fullQueue =
        task -> {
          throw new RejectedExecutionException("queue full");
        };
    BrokerRequester requester =
        new BrokerRequester(
            messaging,
            topology,
            timer,
            fullQueue,
            metrics,
            Duration.ofSeconds(5),
            Duration.ofMillis(1),
            Duration.ofMillis(1),
            3);

    // when
    CompletableFuture<Routed<Record>> call =
        requester.toLeader(
            CommandCall.forPartition("TakeBackup", 1, COMMAND, idempotent),
            Deadline.after(Clock.system(), Duration.ofSeconds(30)));

    // then the broker got the command once, and the status says whether resending is safe
    Throwable failure = call.handle((ok, error) -> Futures.unwrap(error)).join();
    assertThat(failure).isInstanceOf(GatewayException.class).hasMessage(message);
    assertThat(((GatewayException) failure).code()).isEqualTo(code);
    assertThat(messaging.commands.get()).isEqualTo(1);
  }

  /** Broker 0 leads partition 1 and answers every command with OK at once. */
  private static final class OneLeader implements MessagingService {
    final AtomicInteger commands = new AtomicInteger();

    @Override
    public CompletableFuture<byte[]> sendAndReceive(
        int nodeId, String type, byte[] payload, Duration timeout) {
      if (ApiDescriptor.TYPE_TOPOLOGY.equals(type)) {
        return CompletableFuture.completedFuture(
            TopologyCodec.encodeResponse(
                ApiResponse.ok(
                    new BrokerTopology(
                        0,
                        "cairn-test",
                        "0.1.0-test",
                        1,
                        1,
                        List.of(
                            new PartitionReplica(
                                1, ReplicaRole.LEADER, 1, ReplicaHealth.HEALTHY, ""))))));
      }
      commands.incrementAndGet();
      return CompletableFuture.completedFuture(
          CommandCodec.encodeResponse(ApiResponse.ok(COMMAND)));
    }

    @Override
    public int localNodeId() {
      return 9;
    }

    @Override
    public void registerRequestHandler(String type, RequestHandler handler, Executor executor) {}

    @Override
    public void registerMessageHandler(String type, MessageHandler handler, Executor executor) {}

    @Override
    public void unregisterHandler(String type) {}

    @Override
    public CompletableFuture<Void> send(int nodeId, String type, byte[] payload) {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public void close() {}
  }
}
