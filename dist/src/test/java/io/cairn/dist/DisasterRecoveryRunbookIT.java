package io.cairn.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.cli.cluster.FreePorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code docs/disaster-recovery.md} is run as written: every {@code sh} block of the page, in
 * order, in one bash ({@code -euo pipefail}), with the distribution's {@code bin/cairn} on the
 * path; only the settings block (the first) is this test's own. The cluster is three broker
 * processes and a gateway ({@code cairn cluster up --archive --marker-interval 1s}) with a backup,
 * then deposits before and after a moment T; the runbook restores it to T ({@code TARGET="--to-time
 * T"}: the backup and the archived log after it). It must exit 0, and the account it reads back
 * must hold its balance at T — the deposit after T gone, the one between the backup and T kept.
 */
final class DisasterRecoveryRunbookIT {
  private static final Path RUNBOOK = Path.of("..", "docs", "disaster-recovery.md");
  private static final Pattern SH_BLOCK = Pattern.compile("(?s)```sh\n(.*?)```");
  private static final Pattern BALANCE = Pattern.compile("\"balance\"\\s*:\\s*(\\d+)");

  @TempDir Path work;

  @Test
  void shouldRestoreTheClusterToAPointInTimeAsTheRunbookSays() throws Exception {
    Path dist =
        Path.of(System.getProperty("cairn.dist.directory", "target/cairn")).toAbsolutePath();
    int[] ports = FreePorts.forCluster("127.0.0.1", 3, ProcessHandle.current().pid() * 37 + 5);
    String gateway = "127.0.0.1:" + ports[1];
    try {
      cairn(
          dist,
          gateway,
          "cluster",
          "up",
          "--dir",
          "data",
          "--base-port",
          Integer.toString(ports[0]),
          "--http-port",
          Integer.toString(ports[2]),
          "--archive",
          "--marker-interval",
          "1s",
          "--timeout",
          "120s");
      cairn(dist, gateway, "account", "create", "alice");
      cairn(dist, gateway, "account", "deposit", "alice", "100");
      // an id above the markers' (slot starts, one a second) for the next 5 s
      long backup = Instant.now().toEpochMilli() + 5_000;
      cairn(dist, gateway, "backup", "take", Long.toString(backup), "--wait", "--timeout", "60s");
      cairn(dist, gateway, "account", "deposit", "alice", "10"); // after the backup: the archive
      Thread.sleep(6_000); // past the backup's id, so that markers are taken again
      Instant target = Instant.now();
      Thread.sleep(2_500); // a marker after T, and the archive holding the one before it
      cairn(dist, gateway, "account", "deposit", "alice", "1000"); // after T: not restored

      String settings =
          "CLUSTER=data\n"
              + "BROKERS=\"0 1 2\"\n"
              + "TARGET=\"--to-time "
              + target
              + "\"\n"
              + "CHECK_ACCOUNT=alice\n"
              + "export CAIRN_GATEWAY="
              + gateway
              + "\n";
      Run runbook = run(dist, List.of("bash", "-euo", "pipefail", "-c", script(settings)), 300);
      System.out.println(
          "[DisasterRecoveryRunbookIT] the runbook with T = " + target + ": " + runbook);
      assertThat(runbook.exitCode()).as(runbook.toString()).isZero();
      // every restored partition passed its digest check (a mismatch fails the partition)
      assertThat(runbook.out()).as("the topology after the restore").doesNotContain("UNHEALTHY");
      Matcher balance = BALANCE.matcher(runbook.out());
      String last = null;
      while (balance.find()) {
        last = balance.group(1);
      }
      assertThat(last)
          .as("alice's balance at %s, the runbook's last command; %s", target, runbook)
          .isEqualTo("110");
      assertThat(runbook.out()).as("the verify step's verdict").contains("CLEAN");
    } finally {
      run(
          dist,
          List.of(dist.resolve("bin/cairn").toString(), "cluster", "down", "--dir", "data"),
          60);
    }
  }

  /** The runbook's {@code sh} blocks, the first replaced by {@code settings}. */
  private static String script(String settings) throws IOException {
    Matcher block = SH_BLOCK.matcher(Files.readString(RUNBOOK, StandardCharsets.UTF_8));
    List<String> blocks = new ArrayList<>();
    while (block.find()) {
      blocks.add(block.group(1));
    }
    assertThat(blocks).as("the sh blocks of %s", RUNBOOK).hasSizeGreaterThan(5);
    StringBuilder script = new StringBuilder("set -x\n").append(settings);
    blocks.subList(1, blocks.size()).forEach(script::append);
    return script.toString();
  }

  private void cairn(Path dist, String gateway, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(dist.resolve("bin/cairn").toString()));
    command.addAll(List.of("--gateway", gateway));
    command.addAll(List.of(args));
    Run run = run(dist, command, 180);
    assertThat(run.exitCode()).as(run.toString()).isZero();
  }

  private Run run(Path dist, List<String> command, int timeoutSeconds) throws Exception {
    Path out = Files.createTempFile(work, "out", ".txt");
    Path err = Files.createTempFile(work, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(work.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    Map<String, String> env = builder.environment();
    env.put("PATH", dist.resolve("bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("JAVA_OPTS", "-Xmx192m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
    env.keySet().removeIf(name -> name.startsWith("CAIRN_"));
    Process process = builder.start();
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new AssertionError(
          "Expected " + command + " to end within " + timeoutSeconds + " s; " + read(out, err));
    }
    return new Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static String read(Path out, Path err) throws IOException {
    return "stdout:\n" + Files.readString(out) + "\nstderr:\n" + Files.readString(err);
  }

  record Run(int exitCode, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
  }
}
