package io.cairn.cli.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.broker.BrokerTestCluster;
import io.cairn.cli.CliRunner;
import io.cairn.cli.CliRunner.Run;
import io.cairn.cli.ExitCode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backup schedule's status on every surface — {@code cairn backup schedule status} (gRPC), the
 * gateway's {@code GET /actuator/backups/schedule} — from real brokers running a schedule of 2 s,
 * and the answer of a cluster without one.
 */
class BackupScheduleCommandsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void shouldShowTheScheduleOverGrpcTheCliAndHttp(@TempDir Path root) throws Exception {
    try (BrokerTestCluster cluster =
        BrokerTestCluster.builder(root)
            .brokers(2)
            .partitions(2)
            .backupStore(root.resolve("backups"))
            .setting("backup.schedule.interval", "2s")
            .setting("backup.retention.maxAge", "1h")
            .setting("backup.archive.enabled", "true")
            .setting("backup.schedule.markerInterval", "1s")
            .gateway()
            .build()
            .awaitReady()) {
      String gateway = cluster.gatewayAddress();
      await("a scheduled backup and a marker taken")
          .atMost(BrokerTestCluster.TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .until(
              () -> {
                Run run = status(gateway, "--output", "json");
                JsonNode json = run.exitCode() == 0 ? JSON.readTree(run.out()) : null;
                return json != null
                    && json.path("lastRun").path("outcome").asText().equals("taken")
                    && json.path("markers")
                        .path("lastMarker")
                        .path("outcome")
                        .asText()
                        .equals("taken");
              });

      JsonNode schedule = JSON.readTree(status(gateway, "--output", "json").out());
      long lastId = schedule.path("lastRun").path("backupId").asLong();
      assertThat(lastId % 2_000).as("a slot's start").isZero();
      assertThat(schedule.path("nextBackupId").asLong()).isGreaterThan(lastId);
      assertThat(schedule.path("nextBackupId").asLong() % 2_000).isZero();
      assertThat(schedule.path("interval").asText()).isEqualTo("PT2S");
      assertThat(schedule.path("nodeId").asInt())
          .isEqualTo(cluster.leaderReplica(1).partition().nodeId());
      assertThat(schedule.path("retention").path("maxAge").asText()).isEqualTo("PT1H");
      assertThat(schedule.path("lastRun").path("backupState").asText())
          .isIn("IN_PROGRESS", "COMPLETED");
      assertThat(schedule.path("retention").path("minCount").asInt()).isEqualTo(1);
      assertThat(schedule.path("markers").path("interval").asText()).isEqualTo("PT1S");
      assertThat(schedule.path("markers").path("lastMarker").path("markerId").asLong() % 2_000)
          .as("a marker's slot between two backups' slots")
          .isEqualTo(1_000);

      Run table = status(gateway);
      assertThat(table.exitCode()).as(table.toString()).isZero();
      assertThat(table.out())
          .contains(
              "SCHEDULE",
              "NEXT RUN",
              "every 2s",
              "LAST BACKUP",
              "taken",
              "KEEP YOUNGER THAN",
              "1h",
              "BACKUP STATE",
              "MARKERS EVERY",
              "LAST MARKER");

      HttpResponse<String> http =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:"
                                  + cluster.gateway().httpAddress().getPort()
                                  + "/actuator/backups/schedule"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(http.statusCode()).as(http.body()).isEqualTo(200);
      JsonNode body = JSON.readTree(http.body());
      assertThat(body.path("interval").asText()).isEqualTo("PT2S");
      assertThat(body.path("nextBackupId").asLong() % 2_000).isZero();
      assertThat(body.path("lastRun").path("outcome").asText()).isIn("taken", "already_taken");
      assertThat(body.path("retention").path("maxAge").asText()).isEqualTo("PT1H");
      assertThat(body.path("markers").path("interval").asText()).isEqualTo("PT1S");
      assertThat(body.path("markers").path("lastMarker").path("outcome").asText())
          .isIn("taken", "already_taken");
      assertThat(body.path("lastRun").path("backupState").asText())
          .isIn("IN_PROGRESS", "COMPLETED");
    }
  }

  /**
   * A cron schedule firing every minute: the run taken on becoming leader is the current minute's
   * slot, and every surface names the expression.
   */
  @Test
  void shouldRunAndShowACronSchedule(@TempDir Path root) throws Exception {
    try (BrokerTestCluster cluster =
        BrokerTestCluster.builder(root)
            .brokers(1)
            .partitions(2)
            .backupStore(root.resolve("backups"))
            .setting("backup.schedule.cron", "* * * * *")
            .gateway()
            .build()
            .awaitReady()) {
      String gateway = cluster.gatewayAddress();
      await("the current minute's scheduled backup")
          .atMost(BrokerTestCluster.TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .until(
              () -> {
                Run run = status(gateway, "--output", "json");
                return run.exitCode() == 0
                    && JSON.readTree(run.out())
                        .path("lastRun")
                        .path("outcome")
                        .asText()
                        .equals("taken");
              });

      JsonNode schedule = JSON.readTree(status(gateway, "--output", "json").out());
      assertThat(schedule.path("cron").asText()).isEqualTo("* * * * *");
      assertThat(schedule.path("interval").asText()).isEqualTo("PT1M");
      assertThat(schedule.path("lastRun").path("backupId").asLong() % 60_000).isZero();
      assertThat(schedule.path("nextBackupId").asLong())
          .isEqualTo(schedule.path("lastRun").path("backupId").asLong() + 60_000);
      assertThat(status(gateway).out()).contains("cron '* * * * *' (UTC)");
      HttpResponse<String> http =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:"
                                  + cluster.gateway().httpAddress().getPort()
                                  + "/actuator/backups/schedule"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(JSON.readTree(http.body()).path("cron").asText()).isEqualTo("* * * * *");
    }
  }

  @Test
  void shouldSayThatNoScheduleIsConfigured(@TempDir Path root) {
    try (BrokerTestCluster cluster =
        BrokerTestCluster.builder(root).brokers(1).partitions(1).gateway().build().awaitReady()) {
      Run run = status(cluster.gatewayAddress());

      assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.CONFLICT);
      assertThat(run.err())
          .contains(
              "FAILED_PRECONDITION",
              "backup.schedule.interval or backup.schedule.cron",
              "taken by hand only");
    }
  }

  private static Run status(String gateway, String... options) {
    String[] args = new String[options.length + 5];
    args[0] = "--gateway";
    args[1] = gateway;
    System.arraycopy(options, 0, args, 2, options.length);
    args[options.length + 2] = "backup";
    args[options.length + 3] = "schedule";
    args[options.length + 4] = "status";
    return CliRunner.run(args);
  }
}
