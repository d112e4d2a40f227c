package io.cairn.broker;

import static io.cairn.broker.GatewayClient.command;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.broker.exporting.ExporterMetrics;
import io.cairn.broker.exporting.ExportingState;
import io.cairn.logstreams.LogStreamReader;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ExportingOperation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker with the built-in JSON-lines exporter, through its real API: records land in the files,
 * and a pause asked over {@code cairn-exporting} stops them, survives a restart, and ends with a
 * resume.
 */
final class BrokerExportingTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @TempDir Path directory;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void closeEverything() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
  }

  @Test
  void shouldExportToFilesAndKeepAPauseAcrossARestartUntilResumed() throws Exception {
    // given a broker exporting partition 1 as JSON lines
    BrokerTestCluster cluster = start(true);
    Broker broker = cluster.broker(0);
    GatewayClient client = cluster.client();
    String account = LedgerAccountsForTest.on(1, 1, "exp", 1).get(0);
    client.execute(1, command(AccountIntent.CREATE, new AccountValue(account, 0)));
    for (int i = 1; i <= 20; i++) {
      client.execute(1, command(DepositIntent.DEPOSIT, new DepositValue(account, i)));
    }
    Broker first = broker;
    await("every committed record in the files")
        .atMost(TIMEOUT)
        .until(() -> exportedPositions().containsAll(committedPositions(first)));

    // when exporting is paused over the API and more commands are processed
    assertThat(client.exporting(0, ExportingOperation.PAUSE)).isEqualTo(ApiResponse.ok(true));
    TreeSet<Long> beforePause = exportedPositions();
    for (int i = 1; i <= 10; i++) {
      client.execute(1, command(DepositIntent.DEPOSIT, new DepositValue(account, 100)));
    }

    // then nothing more is exported, also after a restart (the flag is read from its file)
    await("no export while paused")
        .during(Duration.ofMillis(700))
        .atMost(TIMEOUT)
        .until(() -> exportedPositions().equals(beforePause));
    broker.close();
    assertThat(ExportingState.open(directory.resolve("node")).isPaused()).isTrue();
    cluster = start(true);
    broker = cluster.broker(0);
    client = cluster.client();
    assertThat(client.exporting(0, ExportingOperation.STATUS)).isEqualTo(ApiResponse.ok(true));
    assertThat(broker.meterRegistry().get(ExporterMetrics.PAUSED).gauge().value()).isEqualTo(1.0);
    await("no export while paused after the restart")
        .during(Duration.ofMillis(700))
        .atMost(TIMEOUT)
        .until(() -> exportedPositions().equals(beforePause));

    // when resumed
    assertThat(client.exporting(0, ExportingOperation.RESUME)).isEqualTo(ApiResponse.ok(false));

    // then every committed record is in the files, without a gap, each line a whole record
    Broker second = broker;
    await("every record exported after the resume")
        .atMost(TIMEOUT)
        .until(() -> exportedPositions().containsAll(committedPositions(second)));
    assertThat(exportedPositions()).isEqualTo(new TreeSet<>(committedPositions(second)));
    await("the acknowledged position metric")
        .atMost(TIMEOUT)
        .until(
            () ->
                second
                        .meterRegistry()
                        .get(ExporterMetrics.POSITION)
                        .tag("partition", "1")
                        .gauge()
                        .value()
                    == committedPositions(second).get(committedPositions(second).size() - 1));
  }

  @Test
  void shouldRestartWithoutExportersOnASnapshotTakenWithThem() throws Exception {
    // given a snapshot of a state that holds exporter positions
    BrokerTestCluster cluster = start(true);
    Broker broker = cluster.broker(0);
    GatewayClient client = cluster.client();
    String account = LedgerAccountsForTest.on(1, 1, "snap", 1).get(0);
    client.execute(1, command(AccountIntent.CREATE, new AccountValue(account, 0)));
    Broker first = broker;
    await("the record in the files")
        .atMost(TIMEOUT)
        .until(() -> exportedPositions().containsAll(committedPositions(first)));
    var partition = broker.partitions().get(1).orElseThrow().partition();
    await("a snapshot")
        .atMost(TIMEOUT)
        .ignoreExceptions()
        .until(() -> partition.takeSnapshot().get(10, TimeUnit.SECONDS).isPresent());
    broker.close();

    // when the broker starts again with no exporter configured
    BrokerTestCluster restarted = start(false);
    broker = restarted.broker(0);

    // then it recovers that state and processes on top of it
    GatewayClient again = restarted.client();
    again.execute(1, command(DepositIntent.DEPOSIT, new DepositValue(account, 5)));
    assertThat(again.balance(1, account).balance()).isEqualTo(5);
    assertThat(broker.health().ready()).isTrue();
  }

  /** The lone broker, with or without the exporter, started and ready; closed after the test. */
  private BrokerTestCluster start(boolean withExporter) {
    BrokerTestCluster cluster =
        BrokerTestCluster.builder(directory)
            .alone()
            .nodeDirectory(0, directory.resolve("node"))
            .yaml(withExporter ? exporters() : "")
            .build();
    closeables.add(cluster);
    return cluster.awaitReady();
  }

  private String exporters() {
    return """
        exporters:
          - id: files
            type: jsonl
            args:
              directory: '%s'
              flushInterval: 100ms
        """
        .formatted(exportDirectory());
  }

  private Path exportDirectory() {
    return directory.resolve("export");
  }

  private static List<Long> committedPositions(Broker broker) {
    List<Long> positions = new ArrayList<>();
    try (LogStreamReader reader =
        broker.partitions().get(1).orElseThrow().partition().logStream().newReader()) {
      while (reader.hasNext()) {
        positions.add(reader.next().position());
      }
    }
    return positions;
  }

  private TreeSet<Long> exportedPositions() {
    TreeSet<Long> positions = new TreeSet<>();
    if (!Files.isDirectory(exportDirectory())) {
      return positions;
    }
    try (Stream<Path> files = Files.list(exportDirectory())) {
      for (Path file : files.sorted().toList()) {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          try {
            positions.add(JSON.readTree(line).get("position").asLong());
          } catch (JsonProcessingException e) {
            // a line being written right now: the next look sees it whole
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return positions;
  }
}
