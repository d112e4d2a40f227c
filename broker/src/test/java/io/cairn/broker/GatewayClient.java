package io.cairn.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.api.AccountBalance;
import io.cairn.protocol.api.AccountQuery;
import io.cairn.protocol.api.AccountQueryCodec;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.BackupCodec;
import io.cairn.protocol.api.BackupEntries;
import io.cairn.protocol.api.BackupRequest;
import io.cairn.protocol.api.BrokerTopology;
import io.cairn.protocol.api.CommandCodec;
import io.cairn.protocol.api.CommandRequest;
import io.cairn.protocol.api.ExportingCodec;
import io.cairn.protocol.api.ExportingOperation;
import io.cairn.protocol.api.PartitionReplica;
import io.cairn.protocol.api.ReplicaRole;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.protocol.api.TopologyCodec;
import io.cairn.scheduler.Clock;
import io.cairn.transport.MemberAddress;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.TransportTls;
import io.cairn.transport.netty.NettyMessagingService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Talks to brokers the way a gateway does: over its own netty transport (node id 1000), with the
 * codecs of {@code io.cairn.protocol.api}, routing commands to the leader with the highest term
 * that the brokers' topologies report.
 */
final class GatewayClient implements AutoCloseable {

  static final int NODE_ID = 1000;
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);
  private static final Duration RETRY_WINDOW = Duration.ofSeconds(30);

  private final NettyMessagingService transport;
  private final Set<Integer> brokers;

  GatewayClient(Map<Integer, MemberAddress> brokers) {
    this(brokers, Optional.empty());
  }

  /** A client speaking mutual TLS with {@code tls} to brokers with TLS on. */
  GatewayClient(Map<Integer, MemberAddress> brokers, Optional<TransportTls> tls) {
    transport =
        new NettyMessagingService(
            TransportConfig.builder(NODE_ID)
                .bindPort(0)
                .ioThreadCount(1)
                .members(brokers)
                .reconnectBackoffMax(Duration.ofMillis(200))
                .build(),
            Clock.system(),
            new SimpleMeterRegistry(),
            tls);
    transport.start();
    this.brokers = Set.copyOf(brokers.keySet());
  }

  /** Where broker {@code nodeId} listens now (after a restart on a new port). */
  void setBrokerAddress(int nodeId, MemberAddress address) {
    transport.setMemberAddress(nodeId, address);
  }

  static Record command(Intent intent, RecordValue value) {
    return new Record(RecordMetadata.builder().command(intent).build(), value);
  }

  byte[] request(int nodeId, String type, byte[] payload) {
    return transport
        .sendAndReceive(nodeId, type, payload, REQUEST_TIMEOUT)
        .orTimeout(REQUEST_TIMEOUT.toMillis() + 1000, TimeUnit.MILLISECONDS)
        .join();
  }

  ApiResponse<BrokerTopology> topology(int nodeId) {
    return TopologyCodec.decodeResponse(
        request(nodeId, ApiDescriptor.TYPE_TOPOLOGY, TopologyCodec.encodeRequest()));
  }

  /** The leader with the highest term any broker reports for {@code partitionId}, or -1. */
  int leaderOf(int partitionId) {
    int leader = -1;
    long term = -1;
    for (int broker : brokers) {
      ApiResponse<BrokerTopology> response;
      try {
        response = topology(broker);
      } catch (RuntimeException e) {
        continue; // a stopped broker
      }
      if (response instanceof ApiResponse.Ok<BrokerTopology> ok) {
        for (PartitionReplica replica : ok.body().replicas()) {
          if (replica.partitionId() == partitionId
              && replica.role() == ReplicaRole.LEADER
              && replica.term() > term) {
            leader = ok.body().nodeId();
            term = replica.term();
          }
        }
      }
    }
    return leader;
  }

  ApiResponse<Record> sendCommand(int nodeId, int partitionId, Record command) {
    return CommandCodec.decodeResponse(
        request(
            nodeId,
            ApiDescriptor.TYPE_COMMAND,
            CommandCodec.encodeRequest(new CommandRequest(partitionId, command))));
  }

  /**
   * Sends {@code command} to the partition's leader until it is answered OK; retries on NOT_LEADER,
   * BACKPRESSURE and PARTITION_UNAVAILABLE (nothing was written then); fails at once on any other
   * status (TIMEOUT leaves the outcome unknown, so it is never retried here).
   */
  Record execute(int partitionId, Record command) {
    Record[] answer = new Record[1];
    await("an answer to " + command.metadata().intent() + " on partition " + partitionId)
        .atMost(RETRY_WINDOW)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              int leader = leaderOf(partitionId);
              if (leader < 0) {
                return false;
              }
              ApiResponse<Record> response = sendCommand(leader, partitionId, command);
              if (response instanceof ApiResponse.Ok<Record> ok) {
                answer[0] = ok.body();
                return true;
              }
              ApiResponse.Failure<Record> failure = (ApiResponse.Failure<Record>) response;
              assertThat(failure.status())
                  .as("status of %s: %s", command, failure.reason())
                  .isIn(
                      ResponseStatus.NOT_LEADER,
                      ResponseStatus.BACKPRESSURE,
                      ResponseStatus.PARTITION_UNAVAILABLE);
              return false;
            });
    return answer[0];
  }

  ApiResponse<AccountBalance> query(int nodeId, int partitionId, String id) {
    return AccountQueryCodec.decodeResponse(
        request(
            nodeId,
            ApiDescriptor.TYPE_QUERY_ACCOUNT,
            AccountQueryCodec.encodeRequest(new AccountQuery(partitionId, id))));
  }

  /** The balance of {@code accountId} from its partition's leader. */
  AccountBalance balance(int partitionId, String accountId) {
    AccountBalance[] balance = new AccountBalance[1];
    await("the balance of " + accountId)
        .atMost(RETRY_WINDOW)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              int leader = leaderOf(partitionId);
              if (leader < 0) {
                return false;
              }
              ApiResponse<AccountBalance> response = query(leader, partitionId, accountId);
              if (response instanceof ApiResponse.Ok<AccountBalance> ok) {
                balance[0] = ok.body();
                return true;
              }
              return false;
            });
    return balance[0];
  }

  ApiResponse<BackupEntries> backup(int nodeId, BackupRequest request) {
    return BackupCodec.decodeResponse(
        request(nodeId, ApiDescriptor.TYPE_BACKUP, BackupCodec.encodeRequest(request)));
  }

  ApiResponse<Boolean> exporting(int nodeId, ExportingOperation operation) {
    return ExportingCodec.decodeResponse(
        request(nodeId, ApiDescriptor.TYPE_EXPORTING, ExportingCodec.encodeRequest(operation)));
  }

  @Override
  public void close() {
    transport.close();
  }
}
