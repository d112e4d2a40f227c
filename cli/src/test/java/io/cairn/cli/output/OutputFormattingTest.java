package io.cairn.cli.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.cairn.cli.Formats;
import io.cairn.cli.admin.BackupCommand;
import io.cairn.cli.admin.BackupProgress;
import io.cairn.cli.admin.TopologyCommand;
import io.cairn.cli.load.LoadCommand;
import io.cairn.cli.load.LoadResults;
import io.cairn.cli.load.LoadSettings;
import io.cairn.client.BackupInfo;
import io.cairn.client.BackupState;
import io.cairn.client.PartitionBackupInfo;
import io.cairn.client.Topology;
import io.cairn.units.Durations;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class OutputFormattingTest {

  private static String printed(Consumer<PrintStream> printer) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    printer.accept(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static final Instant T0 = Instant.parse("2026-01-02T03:04:05.678Z");

  private static PartitionBackupInfo partition(int id, BackupState state, String reason) {
    return new PartitionBackupInfo(
        id,
        state,
        reason,
        100L * id,
        id == 1 ? "" : "7-1-90-95",
        id % 3,
        "0.1.0",
        T0,
        T0,
        1536L * id,
        3,
        "0123456789abcdef0123");
  }

  @Test
  void shouldAlignColumnsRightAlignNumbersAndLeaveNoTrailingSpaces() {
    String text =
        Table.of("partition", "leader", "health")
            .row(1, "none", "HEALTHY")
            .row(12, "0", null)
            .toString();
    assertThat(text)
        .isEqualTo(
            """
            PARTITION  LEADER  HEALTH
                    1  none    HEALTHY
                   12  0       -
            """);
    assertThat(text.lines()).noneMatch(line -> line.endsWith(" "));
  }

  @Test
  void shouldRefuseARowWithTheWrongNumberOfCells() {
    assertThatThrownBy(() -> Table.of("a", "b").row(1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Expected 2 cells, but got 1");
  }

  @Test
  void shouldPrintOneResultPerCommandAsTableOrJson() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Printer json =
        new Printer(
            OutputFormat.JSON,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    json.progress("working");
    json.result(Map.of("at", T0, "n", 3), o -> o.println("a table"));
    JsonNode doc = Printer.mapper().readTree(out.toString(StandardCharsets.UTF_8));
    assertThat(doc.path("at").asText()).isEqualTo("2026-01-02T03:04:05.678Z");
    assertThat(doc.path("n").asInt()).isEqualTo(3);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("working\n");
    assertThatThrownBy(() -> json.result(Map.of(), o -> {}))
        .isInstanceOf(IllegalStateException.class);

    out.reset();
    new Printer(OutputFormat.TABLE, new PrintStream(out, true, StandardCharsets.UTF_8), System.err)
        .result(Map.of("n", 3), o -> o.println("a table"));
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("a table\n");
  }

  @Test
  void shouldDescribeBackupProgressPerPartition() {
    BackupInfo info =
        new BackupInfo(
            7,
            BackupState.IN_PROGRESS,
            "",
            List.of(
                partition(2, BackupState.IN_PROGRESS, ""),
                partition(1, BackupState.COMPLETED, "")));
    assertThat(BackupProgress.describe(info, 3))
        .isEqualTo(
            "backup 7 IN_PROGRESS 1/3 completed: p1 COMPLETED 3 files 1.5 KiB, p2 IN_PROGRESS,"
                + " p3 pending");
    BackupInfo failed =
        new BackupInfo(
            8,
            BackupState.FAILED,
            "leader changed",
            List.of(partition(1, BackupState.FAILED, "leader changed")));
    assertThat(BackupProgress.describe(failed, 1))
        .isEqualTo("backup 8 FAILED 0/1 completed: p1 FAILED (leader changed)");
  }

  @Test
  void shouldPrintABackupStatusWithOneRowPerPartition() {
    BackupInfo info =
        new BackupInfo(
            9,
            BackupState.COMPLETED,
            "",
            List.of(
                partition(2, BackupState.COMPLETED, ""), partition(1, BackupState.COMPLETED, "")));
    List<String> lines = printed(out -> BackupCommand.printStatus(info, out)).lines().toList();
    assertThat(lines.get(0)).startsWith("BACKUP  STATE").contains("PARTITIONS", "SIZE", "FAILURE");
    assertThat(lines.get(1)).matches("\\s*9\\s+COMPLETED\\s+2/2 completed\\s+4\\.5 KiB\\s+-");
    assertThat(lines.get(3)).startsWith("PARTITION").contains("CHECKPOINT POSITION", "DIGEST");
    assertThat(lines.get(4))
        .matches(
            "\\s*1\\s+COMPLETED\\s+1\\s+100\\s+-\\s+3\\s+1\\.5 KiB\\s+0123456789ab…\\s+2026-01-02 03:04:05Z\\s+-");
    assertThat(lines.get(5)).contains("7-1-90-95");
  }

  @Test
  void shouldPrintTheTopologyWithLeadersAndReplicaHealth() {
    Topology topology =
        new Topology(
            "c1",
            2,
            1,
            List.of(
                new Topology.Broker(
                    0,
                    "127.0.0.1:26501",
                    true,
                    "",
                    "0.1.0",
                    List.of(
                        new Topology.Replica(
                            2,
                            Topology.ReplicaRole.FOLLOWER,
                            3,
                            Topology.Health.UNHEALTHY,
                            "transition failed"),
                        new Topology.Replica(
                            1, Topology.ReplicaRole.LEADER, 2, Topology.Health.HEALTHY, ""))),
                new Topology.Broker(1, "127.0.0.1:26502", false, "refused", "", List.of())),
            List.of(
                new Topology.Partition(1, 0, 2, Topology.Health.HEALTHY),
                new Topology.Partition(2, -1, 0, Topology.Health.UNREACHABLE)),
            T0);
    String text = printed(out -> TopologyCommand.print(topology, out));
    assertThat(text)
        .startsWith(
            "Cluster c1: 2 partitions, replication factor 1, 2 brokers (refreshed 2026-01-02 03:04:05Z)")
        .containsPattern("(?m)^\\s*1\\s+0\\s+2\\s+HEALTHY$")
        .containsPattern("(?m)^\\s*2\\s+none\\s+0\\s+UNREACHABLE$")
        .contains("p1:LEADER p2:FOLLOWER(UNHEALTHY: transition failed)")
        .containsPattern("(?m)^\\s*1\\s+127\\.0\\.0\\.1:26502\\s+no: refused\\s+-");
  }

  @Test
  void shouldPrintTheLoadReportAndExitOnlyWhenMoneyIsConserved() {
    LoadSettings settings =
        new LoadSettings(100, 10, Duration.ofSeconds(5), 8, 1000, 10, 42, "x-", Duration.ZERO, 10);
    LoadResults.Transfers transfers =
        new LoadResults.Transfers(
            500,
            495,
            3,
            2,
            7,
            12,
            Map.of("DEADLINE_EXCEEDED", 2L, "FAILED_PRECONDITION", 3L),
            5003,
            98.9,
            new LoadResults.Latency(1.25, 2.5, 9.75, 20.0, 495),
            new LoadResults.Latency(1.0, 2.0, 3.0, 4.0, 495),
            148.4,
            0.3);
    LoadResults.Funding funding = new LoadResults.Funding(10, 10_000, 0, 120);
    LoadResults.Report conserved =
        new LoadResults.Report(
            settings,
            funding,
            transfers,
            new LoadResults.Conservation(10_000, 10_000, true, 1, 40));
    String text = printed(out -> LoadCommand.print(conserved, out));
    assertThat(text)
        .contains("Load: 10 accounts, 100 transfers/s for 5.0s, seed 42")
        .containsPattern("(?m)^SENT\\s+ACKNOWLEDGED\\s+REJECTED\\s+FAILED\\s+RETRIED\\s+RETRIES\\s")
        .containsPattern("(?m)^\\s*500\\s+495\\s+3\\s+2\\s+7\\s+12\\s+98\\.9\\s+5\\.0s$")
        .containsPattern("(?m)^from due time\\s+1\\.25\\s+2\\.50\\s+9\\.75\\s+20\\.00$")
        .containsPattern("(?m)^from sending\\s+1\\.00\\s+2\\.00\\s+3\\.00\\s+4\\.00$")
        .containsPattern("(?m)^DEADLINE_EXCEEDED\\s+2$")
        .contains("Retried: transfers the gateway answered RESOURCE_EXHAUSTED")
        .contains("load generator CPU: 0.300 ms per acknowledged request (148 ms in 5.0s,")
        .contains("Money conserved: sum of balances 10000, deposited 10000.");
    assertThat(LoadCommand.exitCode(conserved)).isZero();

    LoadResults.Report lost =
        new LoadResults.Report(
            settings,
            funding,
            transfers,
            new LoadResults.Conservation(10_000, 9_990, false, 9, 30_000));
    assertThat(printed(out -> LoadCommand.print(lost, out)))
        .contains("Money NOT conserved: sum of balances 9990, deposited 10000.");
    assertThat(LoadCommand.exitCode(lost)).isEqualTo(1);

    LoadResults.Report nothing =
        new LoadResults.Report(
            settings,
            funding,
            new LoadResults.Transfers(
                10,
                0,
                0,
                10,
                0,
                0,
                Map.of("UNAVAILABLE", 10L),
                100,
                0,
                new LoadResults.Latency(0, 0, 0, 0, 0),
                new LoadResults.Latency(0, 0, 0, 0, 0),
                -1,
                -1),
            new LoadResults.Conservation(10_000, 10_000, true, 1, 10));
    assertThat(LoadCommand.exitCode(nothing)).isEqualTo(3);
    assertThat(printed(out -> LoadCommand.print(nothing, out)))
        .doesNotContain("load generator CPU")
        .doesNotContain("Retried:");
  }

  @Test
  void shouldParseAndFormatDurationsAndSizes() {
    assertThat(Durations.parseOrThrow("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parseOrThrow(" 20s")).isEqualTo(Duration.ofSeconds(20));
    assertThat(Durations.parseOrThrow("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(Durations.parseOrThrow("2h")).isEqualTo(Duration.ofHours(2));
    assertThat(Durations.parseOrThrow("PT1.5S")).isEqualTo(Duration.ofMillis(1500));
    assertThat(Durations.parseOrThrow("0")).isEqualTo(Duration.ZERO);
    assertThatThrownBy(() -> Durations.parseOrThrow("-1s"))
        .hasMessage("Expected a duration like 500ms, 20s, 5m, 2h or PT20S, but was '-1s'");
    assertThat(Durations.formatRounded(Duration.ofMillis(850))).isEqualTo("850ms");
    assertThat(Durations.formatRounded(Duration.ofMillis(12_340))).isEqualTo("12.3s");
    assertThat(Durations.formatRounded(Duration.ofSeconds(125))).isEqualTo("2m05s");
    assertThat(Formats.bytes(512)).isEqualTo("512 B");
    assertThat(Formats.bytes(1536)).isEqualTo("1.5 KiB");
    assertThat(Formats.bytes(5L * 1024 * 1024 * 1024)).isEqualTo("5.0 GiB");
    assertThat(Formats.instant(null)).isEqualTo("-");
    assertThat(Formats.digest("")).isEqualTo("-");
  }
}
