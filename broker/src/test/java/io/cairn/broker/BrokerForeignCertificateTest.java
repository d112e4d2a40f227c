package io.cairn.broker;

import static io.cairn.broker.GatewayClient.command;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.partition.Partition;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.raft.RaftMetrics;
import io.cairn.raft.RaftRole;
import io.cairn.tls.ClientAuth;
import io.cairn.tls.LocalSecureFiles;
import io.cairn.tls.LogCapture;
import io.cairn.tls.ReloadingTrustManager;
import io.cairn.tls.ServerTls;
import io.cairn.tls.TlsFiles;
import io.cairn.transport.MemberAddress;
import io.cairn.transport.TransportMetrics;
import io.cairn.transport.TransportTls;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker whose certificate another CA signed cannot join a cluster with mutual TLS on the
 * transport: three real brokers on loopback, two with certificates of the cluster's CA and one
 * (node 2) with a certificate of a foreign CA, though it trusts the cluster's CA itself (so the
 * refusals are the cluster's). The two elect leaders and commit deposits without it; it never
 * receives a frame, never learns a leader and commits nothing; every refused handshake is counted
 * and logged with the certificate's subject and the reason.
 */
class BrokerForeignCertificateTest {

  private static final int PARTITIONS = 3;
  private static final int FOREIGN = 2;

  /** Generous for a loaded machine; on an idle one the test takes a few seconds. */
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path root;
  private LogCapture trustLog;
  private LogCapture refusalLog;

  @BeforeEach
  void captureTlsLogs() {
    trustLog = new LogCapture(ReloadingTrustManager.class.getName());
    refusalLog = new LogCapture("io.cairn.transport.netty.TlsRefusals");
  }

  @AfterEach
  void releaseTlsLogs() {
    trustLog.close();
    refusalLog.close();
  }

  @Test
  void shouldServeWithoutTheBrokerWhoseCertificateAForeignCaSigned() {
    // given two brokers of the cluster's CA and one of a foreign CA that trusts the cluster's CA
    Instant now = Instant.now();
    LocalSecureFiles cluster = LocalSecureFiles.create(root.resolve("tls"), "cluster", now);
    LocalSecureFiles foreign = LocalSecureFiles.create(root.resolve("foreign"), "foreign", now);
    TlsFiles intruder = foreign.issue("broker-2", "security.tls.");
    List<BrokerConfig> configs =
        List.of(
            secure(cluster.issue("broker-0", "security.tls."), cluster.caFile()).config(0),
            secure(cluster.issue("broker-1", "security.tls."), cluster.caFile()).config(1),
            secure(intruder, cluster.caFile()).config(FOREIGN));

    try (BrokerTestCluster brokers = BrokerTestCluster.builder(root).configs(configs).build();
        GatewayClient client =
            new GatewayClient(
                Map.of(0, address(brokers, 0), 1, address(brokers, 1)),
                Optional.of(mutualTls(cluster.issue("gateway", "gateway.security.tls."))))) {

      // when the two good brokers elect a leader for every partition
      await("a leader among brokers 0 and 1 for every partition")
          .atMost(WAIT)
          .pollInterval(Duration.ofMillis(50))
          .until(() -> everyPartitionLedBy(brokers, List.of(0, 1)));

      // then a deposit on every partition is committed and answered
      for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
        String account = LedgerAccountsForTest.on(partitionId, PARTITIONS, "foreign", 1).get(0);
        client.execute(partitionId, command(AccountIntent.CREATE, new AccountValue(account, 0)));
        Record deposited =
            client.execute(
                partitionId, command(DepositIntent.DEPOSIT, new DepositValue(account, 7)));
        assertThat(deposited.metadata().intent()).isEqualTo(DepositIntent.DEPOSITED);
        assertThat(deposited.position()).isPositive();
      }
      for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
        int partition = partitionId;
        for (int nodeId : List.of(0, 1)) {
          await("the commit of partition " + partition + " on broker " + nodeId)
              .atMost(WAIT)
              .pollInterval(Duration.ofMillis(50))
              .until(() -> commitIndex(brokers.broker(nodeId), partition) > 0);
        }
      }

      // and the foreign broker got nothing: no frame, no leader, no commit
      Broker outsider = brokers.broker(FOREIGN);
      assertThat(framesReceived(outsider.meterRegistry())).isZero();
      for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
        Partition partition = outsider.partitions().get(partitionId).orElseThrow().partition();
        assertThat(partition.leaderId())
            .as("leader known on partition %d", partitionId)
            .isEqualTo(-1);
        assertThat(partition.raftRole()).isNotEqualTo(RaftRole.LEADER);
        assertThat(commitIndex(outsider, partitionId)).isZero();
      }

      // and each good broker refused it dialling in (its vote requests), a leader refused it when
      // dialling it (heartbeats), and it counted its own refused attempts
      await("the good brokers counting the refused handshakes")
          .atMost(WAIT)
          .pollInterval(Duration.ofMillis(50))
          .untilAsserted(
              () -> {
                assertThat(handshakesFailed(brokers.broker(0), "server")).isPositive();
                assertThat(handshakesFailed(brokers.broker(1), "server")).isPositive();
                assertThat(
                        handshakesFailed(brokers.broker(0), "client")
                            + handshakesFailed(brokers.broker(1), "client"))
                    .isPositive();
                assertThat(handshakesFailed(outsider, "client")).isPositive();
              });
      // and said which certificate and why (the transport counts a refusal before it logs it)
      await("the refusals logged")
          .atMost(WAIT)
          .pollInterval(Duration.ofMillis(50))
          .untilAsserted(
              () -> {
                assertThat(trustLog.messages(Level.WARN))
                    .anySatisfy(
                        m ->
                            assertThat(m)
                                .contains(
                                    "Expected the client's certificate to be signed by a trusted"
                                        + " CA",
                                    "subject=CN=broker-2",
                                    "issuer=CN=foreign local CA",
                                    "is signed by none of them",
                                    "trusted CAs [CN=cluster local CA]"))
                    .anySatisfy(
                        m ->
                            assertThat(m)
                                .contains(
                                    "Expected the server's certificate to be signed by a trusted"
                                        + " CA",
                                    "subject=CN=broker-2",
                                    "is signed by none of them"));
                assertThat(refusalLog.messages(Level.WARN))
                    .anySatisfy(
                        m ->
                            assertThat(m)
                                .startsWith(
                                    "Expected a TLS handshake with a certificate of the cluster's"
                                        + " CA from")
                                .containsAnyOf("(node 0)", "(node 1)"));
              });
    }
  }

  /** The cluster's shape with TLS on, with {@code files}' certificate and key. */
  private BrokerTestCluster.Builder secure(TlsFiles files, Path trustedCaFile) {
    return BrokerTestCluster.builder(root)
        .brokers(3)
        .partitions(PARTITIONS)
        .replicationFactor(3)
        .noBackupStore()
        // a transfer towards the foreign broker could never complete
        .leaderBalancing(false)
        .setting("management.enabled", "false")
        .setting("security.tls.enabled", "true")
        .setting(
            "security.tls.certificateFile",
            files.certificateChain().orElseThrow().path().toString())
        .setting("security.tls.privateKeyFile", files.privateKey().orElseThrow().path().toString())
        .setting("security.tls.trustedCaFile", trustedCaFile.toString());
  }

  /** Mutual TLS on the client's transport, as a gateway with {@code files} speaks it. */
  private static TransportTls mutualTls(TlsFiles files) {
    ServerTls tls = ServerTls.load(files, ClientAuth.REQUIRED);
    return new TransportTls(tls.keyManager(), tls.trustManager().orElseThrow(), tls.protocols());
  }

  private static MemberAddress address(BrokerTestCluster brokers, int nodeId) {
    return brokers.broker(nodeId).transportAddress();
  }

  private static boolean everyPartitionLedBy(BrokerTestCluster brokers, List<Integer> nodeIds) {
    for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
      int partition = partitionId;
      long leaders =
          nodeIds.stream()
              .map(brokers::broker)
              .filter(b -> b.partitions().get(partition).orElseThrow().isLeader())
              .count();
      if (leaders != 1) {
        return false;
      }
    }
    return true;
  }

  private static double commitIndex(Broker broker, int partitionId) {
    Gauge gauge =
        broker
            .meterRegistry()
            .get(RaftMetrics.COMMIT_INDEX)
            .tag("partition", Integer.toString(partitionId))
            .gauge();
    return gauge.value();
  }

  private static double handshakesFailed(Broker broker, String role) {
    Counter counter =
        broker.meterRegistry().find(TransportMetrics.HANDSHAKES_FAILED).tag("role", role).counter();
    return counter == null ? 0 : counter.count();
  }

  /** Requests, responses and messages the broker's transport received, of any result. */
  private static double framesReceived(MeterRegistry registry) {
    return registry.find(TransportMetrics.MESSAGES_RECEIVED).counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }
}
