package io.cairn.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cairn.cli.CliContext;
import io.cairn.cli.CliRunner;
import io.cairn.cli.CliRunner.Run;
import io.cairn.cli.ExitCode;
import io.cairn.cli.output.Printer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster up|status|down} with real processes: a broker and a gateway started from this
 * JVM's class path, driven through the spawned gateway, stopped with SIGTERM.
 */
class LocalClusterProcessTest {
  @TempDir Path root;

  private final List<Long> pids = new ArrayList<>();

  @AfterEach
  void killLeftovers() throws Exception {
    // Only if a test failed half-way: never leave processes behind.
    LeftoverProcesses.kill(root, pids);
  }

  private Run cairn(String... args) {
    return CliRunner.run(Map.of(), root, CliContext::connectClient, args);
  }

  private static JsonNode json(Run run) throws Exception {
    return Printer.mapper().readTree(run.out());
  }

  private String[] upArgs(String dir, String... extra) {
    int[] ports = FreePorts.forCluster("127.0.0.1", 1, System.identityHashCode(this));
    List<String> args =
        new ArrayList<>(
            List.of(
                "--output",
                "json",
                "--gateway",
                "127.0.0.1:" + ports[1],
                "cluster",
                "up",
                "--dir",
                dir,
                "--brokers",
                "1",
                "--partitions",
                "1",
                "--replication-factor",
                "1",
                "--base-port",
                Integer.toString(ports[0]),
                "--http-port",
                Integer.toString(ports[2]),
                "--timeout",
                "90s"));
    args.addAll(List.of(extra));
    return args.toArray(String[]::new);
  }

  @Test
  void shouldStartUseAndStopALocalCluster() throws Exception {
    Run up = cairn(upArgs("cluster"));
    JsonNode started = json(up);
    started.path("processes").forEach(p -> pids.add(p.path("pid").asLong()));
    assertThat(up.exitCode()).as(up.toString()).isZero();
    assertThat(started.path("healthy").asBoolean()).isTrue();
    assertThat(started.path("processes").findValuesAsText("state"))
        .containsExactly("started", "started");
    assertThat(started.path("topology").path("partitions").get(0).path("leaderNodeId").asInt())
        .isZero();
    assertThat(up.err()).contains("cluster: ready, gateway at");
    for (long pid : pids) {
      assertThat(ProcessHandle.of(pid)).isPresent();
    }
    String gateway =
        started.path("layout").path("host").asText()
            + ":"
            + started.path("layout").path("gatewayPort").asInt();

    Run create = cairn("--gateway", gateway, "account", "create", "process-test");
    assertThat(create.exitCode()).as(create.toString()).isZero();

    Run again = cairn("--output", "json", "cluster", "up", "--dir", "cluster");
    assertThat(again.exitCode()).as(again.toString()).isZero();
    assertThat(json(again).path("processes").findValuesAsText("state"))
        .containsExactly("already running", "already running");

    Run reshape = cairn("cluster", "up", "--dir", "cluster", "--brokers", "3");
    assertThat(reshape.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(reshape.err())
        .contains("Expected options matching the cluster in", "--brokers 3 != 1");

    Run restoreWhileUp = cairn("cluster", "restore", "--dir", "cluster", "--backup-id", "1");
    assertThat(restoreWhileUp.exitCode())
        .as(restoreWhileUp.toString())
        .isEqualTo(ExitCode.CONFLICT);
    assertThat(restoreWhileUp.err())
        .contains("to be down, but broker-0 runs", "cairn cluster down");

    Run status = cairn("cluster", "status", "--dir", "cluster");
    assertThat(status.exitCode()).as(status.toString()).isZero();
    assertThat(status.out())
        .containsPattern("(?m)^broker-0\\s+\\d+\\s+running")
        .contains("p1:LEADER");

    Run down = cairn("--output", "json", "cluster", "down", "--dir", "cluster", "--timeout", "30s");
    assertThat(down.exitCode()).as(down.toString()).isZero();
    assertThat(json(down).path("processes").findValuesAsText("state"))
        .containsExactly("stopped", "stopped");
    for (long pid : pids) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }
    assertThat(root.resolve("cluster/run/broker-0.pid")).doesNotExist();
    assertThat(root.resolve("cluster/logs/broker-0.log"))
        .content()
        .contains("Broker 0 started: transport");

    Run stopped = cairn("cluster", "status", "--dir", "cluster");
    assertThat(stopped.exitCode()).isEqualTo(ExitCode.UNAVAILABLE);
    assertThat(stopped.out()).contains("Gateway unreachable");
  }

  /**
   * {@code --secure}: the cluster's own CA in {@code tls/}, every listener on TLS, API keys at the
   * gateway, encrypted backups; the CLI reaches it with {@code --ca-file} and the admin key, and is
   * refused without either.
   */
  @Test
  void shouldStartASecureClusterReachableWithItsCaOnly() throws Exception {
    Run up = cairn(upArgs("secure", "--secure"));
    JsonNode started = json(up);
    started.path("processes").forEach(p -> pids.add(p.path("pid").asLong()));
    assertThat(up.exitCode()).as(up.toString()).isZero();
    Path ca = root.resolve("secure/tls/ca.crt");
    Path key = root.resolve("secure/tls/admin.apikey");
    assertThat(up.err())
        .contains("cluster: TLS and API keys on; clients use --ca-file " + ca)
        .contains("--credentials-file " + key);
    assertThat(root.resolve("secure/broker-0.yaml"))
        .content()
        .contains("security:", "enabled: true", "backup-master.keys");
    String gateway =
        started.path("layout").path("host").asText()
            + ":"
            + started.path("layout").path("gatewayPort").asInt();

    Run create =
        cairn(
            "--gateway",
            gateway,
            "--ca-file",
            ca.toString(),
            "--credentials-file",
            key.toString(),
            "account",
            "create",
            "sealed");
    assertThat(create.exitCode()).as(create.toString()).isZero();
    Run backup =
        cairn(
            "--gateway",
            gateway,
            "--ca-file",
            ca.toString(),
            "--credentials-file",
            key.toString(),
            "backup",
            "take",
            "1",
            "--wait",
            "--timeout",
            "60s");
    assertThat(backup.exitCode()).as(backup.toString()).isZero();
    try (Stream<Path> files = Files.walk(root.resolve("secure/backups"))) {
      assertThat(files.filter(f -> f.getFileName().toString().equals("manifest.json")))
          .isNotEmpty()
          .allSatisfy(f -> assertThat(f).content().contains("\"keyId\" : \"local-1\""));
    }

    Run plaintext = cairn("--gateway", gateway, "account", "create", "plain");
    assertThat(plaintext.exitCode()).as(plaintext.toString()).isEqualTo(ExitCode.UNAVAILABLE);
    Run withoutKey =
        cairn("--gateway", gateway, "--ca-file", ca.toString(), "account", "create", "no-key");
    assertThat(withoutKey.exitCode()).as(withoutKey.toString()).isEqualTo(ExitCode.DENIED);
    assertThat(withoutKey.out() + withoutKey.err()).doesNotContain(Files.readString(key).strip());

    Run down = cairn("cluster", "down", "--dir", "secure", "--timeout", "30s");
    assertThat(down.exitCode()).as(down.toString()).isZero();
  }

  @Test
  void shouldReportABrokerThatExitsWhileStarting() throws Exception {
    Files.createDirectories(root.resolve("broken"));
    Files.writeString(root.resolve("broken/broker-0.yaml"), "cluster:\n  nodeId: -1\n");
    Run up = cairn(upArgs("broken"));
    JsonNode error = json(up).path("error");
    try {
      assertThat(up.exitCode()).as(up.toString()).isEqualTo(ExitCode.FAILED);
      assertThat(error.path("message").asText())
          .contains("Expected broker-0 to keep running, but it exited with code 2")
          .contains("Expected cluster.nodeId to be an integer in [0, 1023], but was -1");
    } finally {
      Run down = cairn("cluster", "down", "--dir", "broken");
      assertThat(down.exitCode()).as(down.toString()).isZero();
      assertThat(down.out()).containsPattern("(?m)^gateway\\s+\\d+\\s+stopped");
    }
  }

  @Test
  void shouldRefuseStatusAndDownWithoutACluster() {
    Run status = cairn("cluster", "status", "--dir", "nothing-here");
    assertThat(status.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(status.err()).contains("Expected a local cluster in", "cairn cluster up --dir");
    assertThat(cairn("cluster", "down", "--dir", "nothing-here").exitCode())
        .isEqualTo(ExitCode.NOT_FOUND);
    assertThat(cairn("cluster", "restore", "--dir", "nothing-here", "--backup-id", "1").exitCode())
        .isEqualTo(ExitCode.NOT_FOUND);
  }
}
