package io.cairn.qa.support;

import io.cairn.protocol.Record;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.CommandCodec;
import io.cairn.protocol.api.CommandRequest;
import io.cairn.protocol.api.ExportingCodec;
import io.cairn.protocol.api.ExportingOperation;
import io.cairn.qa.EmbeddedCluster;
import io.cairn.scheduler.Clock;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.netty.NettyMessagingService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Asks one broker directly, over its own transport endpoint, what the gateway does not report per
 * broker (the {@code cairn-exporting} STATUS), or sends it a command the gateway would not send
 * (bypassing the gateway's checks). Bypasses the cluster's network proxies.
 */
public final class BrokerProbe implements AutoCloseable {

  private static final int NODE_ID = 2000;
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final EmbeddedCluster cluster;
  private final NettyMessagingService transport;

  public BrokerProbe(EmbeddedCluster cluster) {
    this.cluster = cluster;
    this.transport =
        new NettyMessagingService(
            TransportConfig.builder(NODE_ID).bindPort(0).ioThreadCount(1).build(),
            Clock.system(),
            new SimpleMeterRegistry());
    transport.start();
  }

  /** Broker {@code nodeId}'s answer to {@code cairn-exporting} STATUS. */
  public ApiResponse<Boolean> exportingStatus(int nodeId) {
    transport.setMemberAddress(nodeId, cluster.broker(nodeId).transportAddress());
    byte[] answer =
        transport
            .sendAndReceive(
                nodeId,
                ApiDescriptor.TYPE_EXPORTING,
                ExportingCodec.encodeRequest(ExportingOperation.STATUS),
                TIMEOUT)
            .orTimeout(TIMEOUT.toMillis() + 1_000, TimeUnit.MILLISECONDS)
            .join();
    return ExportingCodec.decodeResponse(answer);
  }

  /** Broker {@code nodeId}'s answer to {@code cairn-command} for {@code partitionId}. */
  public ApiResponse<Record> command(int nodeId, int partitionId, Record command) {
    transport.setMemberAddress(nodeId, cluster.broker(nodeId).transportAddress());
    byte[] answer =
        transport
            .sendAndReceive(
                nodeId,
                ApiDescriptor.TYPE_COMMAND,
                CommandCodec.encodeRequest(new CommandRequest(partitionId, command)),
                TIMEOUT)
            .orTimeout(TIMEOUT.toMillis() + 1_000, TimeUnit.MILLISECONDS)
            .join();
    return CommandCodec.decodeResponse(answer);
  }

  @Override
  public void close() {
    transport.close();
  }
}
