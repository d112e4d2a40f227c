package io.cairn.broker;

import static io.cairn.broker.GatewayClient.command;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.node.NodeDescriptorMismatchException;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.BackupRequest;
import io.cairn.protocol.api.CommandCodec;
import io.cairn.protocol.api.CommandRequest;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.scheduler.Clock;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.netty.NettyMessagingService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One broker alone: graceful shutdown, restart on its data, refused data directories, main. */
final class BrokerLifecycleTest {

  private static final int PARTITIONS = 2;

  @TempDir Path directory;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void closeEverything() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
  }

  @Test
  void shouldAnswerInFlightCommandsOnShutdownAndKeepEveryAnsweredOneAcrossARestart()
      throws Exception {
    // given a running broker and an account on partition 1
    BrokerTestCluster cluster = start();
    Broker broker = cluster.broker(0);
    GatewayClient client = cluster.client();
    String account = LedgerAccountsForTest.on(1, PARTITIONS, "life", 1).get(0);
    client.execute(1, command(AccountIntent.CREATE, new AccountValue(account, 0)));

    // when 100 deposits were answered, and 100 more stream in while the broker shuts down
    NettyMessagingService raw = rawClient(broker);
    long answered = 0;
    for (int batch = 0; batch < 5; batch++) { // 20 at a time
      List<CompletableFuture<byte[]>> first = new ArrayList<>();
      for (int i = batch * 20 + 1; i <= batch * 20 + 20; i++) {
        first.add(deposit(raw, account, i));
        answered += i;
      }
      for (CompletableFuture<byte[]> future : first) {
        ApiResponse<Record> response =
            CommandCodec.decodeResponse(future.get(30, TimeUnit.SECONDS));
        assertThat(response.status()).as("%s", response).isEqualTo(ResponseStatus.OK);
      }
    }
    List<CompletableFuture<byte[]>> deposits = new ArrayList<>();
    for (int i = 101; i <= 200; i++) {
      deposits.add(deposit(raw, account, i));
      if (i == 120) {
        CompletableFuture.runAsync(broker::close);
      }
    }
    await("the broker closed").atMost(Duration.ofSeconds(30)).until(broker::isClosed);
    broker.close(); // idempotent; returns once the shutdown finished
    assertThat(broker.health().ready()).isFalse();

    // then every deposit that got in was answered (never TIMEOUT); the rest were refused (shut
    // down, backpressure: nothing written) or never reached a handler
    for (int i = 0; i < deposits.size(); i++) {
      byte[] payload;
      try {
        payload = deposits.get(i).get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        continue; // the handlers or the transport were gone: never written
      }
      ApiResponse<Record> response = CommandCodec.decodeResponse(payload);
      assertThat(response.status())
          .as("deposit %s: %s", i + 101, response)
          .isIn(
              ResponseStatus.OK, ResponseStatus.PARTITION_UNAVAILABLE, ResponseStatus.BACKPRESSURE);
      if (response.status() == ResponseStatus.OK) {
        answered += i + 101;
      }
    }
    assertThat(Files.readString(directory.resolve("node-0").resolve("node.json")))
        .contains("\"partitionCount\" : 2");

    // and a restart on the same data holds exactly the answered deposits
    GatewayClient again = start().client();
    assertThat(again.balance(1, account).balance()).isEqualTo(answered);
  }

  @Test
  void shouldRefuseADataDirectoryMadeForAnotherShape() {
    // given a data directory made for node 0 of a 2-partition cluster
    start().broker(0).close();

    // then another partition count or cluster id is refused, naming what differs
    assertThatThrownBy(() -> Broker.open(config(4, 0, Map.of())))
        .isInstanceOf(NodeDescriptorMismatchException.class)
        .hasMessageContaining("partition count 2 (configured 4)");
    assertThatThrownBy(
            () -> Broker.open(config(PARTITIONS, 0, Map.of("CAIRN_CLUSTER_CLUSTERID", "other"))))
        .isInstanceOf(NodeDescriptorMismatchException.class)
        .hasMessageContaining("cluster id 'test-cluster' (configured 'other')");
  }

  @Test
  void shouldFailToStartNamingTheKeyWhenTheBackupDirectoryIsMissingAndReleaseThePort() {
    // given a filesystem store whose directory does not exist
    Path missing = directory.resolve("no-such-backups");
    Broker broker =
        Broker.open(
            config(
                PARTITIONS,
                0,
                Map.of(
                    "CAIRN_BACKUP_STORE", "fs", "CAIRN_BACKUP_FS_BASEPATH", missing.toString())));
    closeables.add(broker);
    var address = broker.transportAddress();

    // then start fails, names the key, and what was started is closed again
    assertThatThrownBy(broker::start)
        .hasMessageContaining("basePath")
        .hasMessageContaining(missing.toString())
        .hasMessageContaining("CAIRN_BACKUP_FS_BASEPATH");
    assertThat(broker.isClosed()).isTrue();
    assertThat(broker.health().ready()).isFalse();
    try (var socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(address.host(), address.port()));
    } catch (IOException e) {
      throw new AssertionError("the transport port " + address + " is still bound", e);
    }
  }

  @Test
  void shouldTakeCheckpointsButAnswerBackupQueriesThatNoStoreIsConfigured() {
    // given a broker without a backup store
    BrokerTestCluster cluster = start();
    Broker broker = cluster.broker(0);
    GatewayClient client = cluster.client();

    // when a checkpoint is taken
    Record created =
        client.execute(
            2,
            command(
                CheckpointIntent.CREATE,
                new CheckpointValue(3, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP)));

    // then it is, but backups are not configured, and the answer says so
    assertThat(created.metadata().intent()).isEqualTo(CheckpointIntent.CREATED);
    var status = client.backup(0, BackupRequest.status(3));
    assertThat(status.status()).isEqualTo(ResponseStatus.UNAVAILABLE);
    assertThat(((ApiResponse.Failure<?>) status).reason())
        .contains("backups are not configured (backup.store is none)");
  }

  @Test
  void shouldExitWithAUsageCodeOnABadCommandLineOrConfiguration() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(err, true, StandardCharsets.UTF_8);

    assertThat(BrokerMain.run(new String[] {}, Map.of(), print)).isEqualTo(BrokerMain.EXIT_USAGE);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("Expected --config <file>");

    Path file = directory.resolve("broker.yaml");
    Files.writeString(file, "cluster:\n  nodeId: 1\n  partitions: 3\n");
    assertThat(
            BrokerMain.run(
                new String[] {"--config", file.toString()},
                Map.of("CAIRN_NETWORK_PORT", "x"),
                print))
        .isEqualTo(BrokerMain.EXIT_USAGE);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("did you mean cluster.partitionCount?")
        .contains("Expected network.port to be an integer in [0, 65535], but was 'x'");

    assertThat(
            BrokerMain.run(
                new String[] {"--config", directory.resolve("missing.yaml").toString()},
                Map.of(),
                print))
        .isEqualTo(BrokerMain.EXIT_USAGE);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("Expected a readable configuration file");
  }

  private static CompletableFuture<byte[]> deposit(
      NettyMessagingService transport, String account, long amount) {
    return transport.sendAndReceive(
        0,
        ApiDescriptor.TYPE_COMMAND,
        CommandCodec.encodeRequest(
            new CommandRequest(
                1, command(DepositIntent.DEPOSIT, new DepositValue(account, amount)))),
        Duration.ofSeconds(20));
  }

  /** The lone broker on {@code node-0}, started and ready; closed after the test. */
  private BrokerTestCluster start() {
    BrokerTestCluster cluster = lone(PARTITIONS, Map.of()).build();
    closeables.add(cluster);
    return cluster.awaitReady();
  }

  private NettyMessagingService rawClient(Broker broker) {
    NettyMessagingService transport =
        new NettyMessagingService(
            TransportConfig.builder(GatewayClient.NODE_ID + 1)
                .bindPort(0)
                .ioThreadCount(1)
                .member(0, broker.transportAddress())
                .build(),
            Clock.system(),
            new SimpleMeterRegistry());
    transport.start();
    closeables.add(transport);
    return transport;
  }

  private BrokerConfig config(int partitionCount, int nodeId, Map<String, String> env) {
    return lone(partitionCount, env).config(nodeId);
  }

  private BrokerTestCluster.Builder lone(int partitionCount, Map<String, String> env) {
    return BrokerTestCluster.builder(directory).alone().partitions(partitionCount).env(env);
  }
}
