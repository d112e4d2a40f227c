package io.cairn.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cairn.cli.CliContext;
import io.cairn.cli.CliRunner;
import io.cairn.cli.CliRunner.Run;
import io.cairn.cli.output.Printer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole demo with real processes (3 brokers, a gateway, load, a backup under load, verify,
 * restore into a second cluster of processes and its checks), shortened to a 6 s load, with {@code
 * --keep-running}: the restored cluster's console answers where the demo says it is, and {@code
 * cluster down} stops it. About 45 s, so it runs with the long tests only ({@code -Psimulation}).
 */
@EnabledIfSystemProperty(named = "cairn.simulation.long", matches = "true")
class DemoProcessTest {
  @TempDir Path root;

  @Test
  void shouldBackUpUnderLoadVerifyRestoreConserveMoneyAndStopEverything() throws Exception {
    Run run =
        CliRunner.run(
            Map.of(),
            root,
            CliContext::connectClient,
            "--output",
            "json",
            "demo",
            "--dir",
            "demo",
            "--duration",
            "6s",
            "--rate",
            "50",
            "--accounts",
            "20",
            "--keep-running");
    assertThat(run.exitCode()).as(run.toString()).isZero();
    JsonNode summary = Printer.mapper().readTree(run.out());
    assertThat(summary.path("result").asText()).isEqualTo("ok");
    assertThat(summary.path("backup").path("state").asText()).isEqualTo("COMPLETED");
    assertThat(summary.path("backup").path("partitions")).hasSize(3);
    assertThat(summary.path("conservation").path("conserved").asBoolean()).isTrue();
    assertThat(summary.path("transfers").path("acknowledged").asLong()).isPositive();
    assertThat(summary.path("verify").path("clean").asBoolean()).isTrue();
    assertThat(summary.path("verify").path("partitions").findValuesAsText("digest"))
        .containsExactly("OK", "OK", "OK");
    JsonNode restore = summary.path("restore");
    assertThat(restore.path("result").path("nodes")).hasSize(3);
    assertThat(restore.path("conservation").path("conserved").asBoolean()).isTrue();
    assertThat(restore.path("conservation").path("actual").asLong())
        .isEqualTo(summary.path("funding").path("total").asLong());
    assertThat(summary.path("steps").findValuesAsText("name"))
        .containsExactly(
            "start cluster",
            "fund accounts",
            "transfer load with a backup under load",
            "check money conservation",
            "stop cluster",
            "verify backup 1",
            "restore backup 1 into a new cluster",
            "start restored cluster",
            "check restored accounts and money");
    assertThat(run.err())
        .contains("backup 1 COMPLETED 3/3 completed", "cluster: broker-2 stopped")
        .contains("{\"event\":\"plan\",\"operation\":\"restore\",\"backupId\":1,\"nodeId\":2,");
    Path restored;
    try (Stream<Path> runs = Files.list(root.resolve("demo"))) {
      restored = runs.findFirst().orElseThrow().resolve("restored");
    }
    assertThat(restored.resolve("broker-1/node.json")).exists();

    // the restored cluster keeps running: its console is where the summary says
    String console = summary.path("console").asText();
    assertThat(console).matches("http://127\\.0\\.0\\.1:\\d+/console/");
    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> page =
        http.send(
            HttpRequest.newBuilder(URI.create(console)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("<title>Cairn console</title>");
    HttpResponse<String> topology =
        http.send(
            HttpRequest.newBuilder(URI.create(console).resolve("/actuator/topology")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(Printer.mapper().readTree(topology.body()).path("partitions")).hasSize(3);
    Run down =
        CliRunner.run(
            Map.of(),
            root,
            CliContext::connectClient,
            "cluster",
            "down",
            "--dir",
            restored.toString());
    assertThat(down.exitCode()).as(down.toString()).isZero();
    try (Stream<Path> pids = Files.walk(root)) {
      assertThat(pids.filter(p -> p.toString().endsWith(".pid"))).isEmpty();
    }
  }
}
