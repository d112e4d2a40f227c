package io.cairn.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.cli.cluster.FreePorts;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
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
  private static final Pattern BALANCE = Pattern.compile("\"balance\"\\s*:\\s*(\\d+)");

  @TempDir Path work;

  @Test
  void shouldRestoreTheClusterToAPointInTimeAsTheRunbookSays() throws Exception {
    DocShell shell = new DocShell(work);
    int[] ports = FreePorts.forCluster("127.0.0.1", 3, ProcessHandle.current().pid() * 37 + 5);
    String gateway = "127.0.0.1:" + ports[1];
    try {
      shell.cairn(
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
      shell.cairn(gateway, "account", "create", "alice");
      shell.cairn(gateway, "account", "deposit", "alice", "100");
      // an id above the markers' (slot starts, one a second) for the next 5 s
      long backup = Instant.now().toEpochMilli() + 5_000;
      shell.cairn(gateway, "backup", "take", Long.toString(backup), "--wait", "--timeout", "60s");
      shell.cairn(gateway, "account", "deposit", "alice", "10"); // after the backup: the archive
      Thread.sleep(6_000); // past the backup's id, so that markers are taken again
      Instant target = Instant.now();
      Thread.sleep(2_500); // a marker after T, and the archive holding the one before it
      shell.cairn(gateway, "account", "deposit", "alice", "1000"); // after T: not restored

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
      DocShell.Run runbook = shell.bash(script(settings), 300);
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
      shell.cairnAnyway("cluster", "down", "--dir", "data");
    }
  }

  /** The runbook's {@code sh} blocks, the first replaced by {@code settings}. */
  private static String script(String settings) throws IOException {
    List<String> blocks = DocShell.blocks(RUNBOOK);
    assertThat(blocks).as("the sh blocks of %s", RUNBOOK).hasSizeGreaterThan(5);
    StringBuilder script = new StringBuilder(settings);
    blocks.subList(1, blocks.size()).forEach(script::append);
    return script.toString();
  }
}
