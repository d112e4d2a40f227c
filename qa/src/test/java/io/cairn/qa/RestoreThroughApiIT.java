package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Timestamp;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.backupfs.layout.StoreLayout;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.backuptestkit.ManifestTampering;
import io.cairn.client.CairnClient;
import io.cairn.client.CairnClientException;
import io.cairn.gateway.v1.GetRestoreStatusRequest;
import io.cairn.gateway.v1.RestoreRequest;
import io.cairn.gateway.v1.RestoreStatus;
import io.cairn.qa.support.Checkpoints;
import io.cairn.qa.support.ClusterRestore;
import io.cairn.qa.support.LedgerOracle;
import io.cairn.qa.support.Phases;
import io.cairn.qa.support.Seeds;
import io.cairn.qa.support.TransferLoad;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restore through the API: a cluster with the log archive takes backups 1 and 2 under transfer
 * load, then checkpoint 3, whose backup is deleted (a restore point of the archive only). Two
 * clusters are started empty with {@code data.restoreMode} on the same store: one is restored by
 * {@code POST /actuator/restore {"backupId": 1}}, the other by gRPC {@code Restore} to a time after
 * point 3 (backup 2 and the archived log). Each reports per-partition progress, ends COMPLETED
 * (every partition passed its digest check) and serves the balances of its own moment. A cluster
 * holding data, a second restore and malformed requests are refused with a clear message.
 */
final class RestoreThroughApiIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path directory;

  @Test
  void shouldRestoreABackupAndAPointInTimeThroughTheApi() throws Exception {
    long seed = Seeds.seed("RestoreThroughApiIT");
    Phases phases = new Phases("RestoreThroughApiIT");
    Path store = Files.createDirectories(directory.resolve("backups"));
    Map<Long, Map<String, Long>> balancesAt = new TreeMap<>();
    List<String> accounts;
    Instant afterPointThree;
    try (EmbeddedCluster source = cluster(directory.resolve("source"), store, false, true)) {
      source.start().awaitHealthy();
      CairnClient client = source.client();
      accounts = LedgerOracle.accounts(source, "api", 3);
      LedgerOracle oracle = LedgerOracle.fund(client, accounts, 10_000);
      balancesAt.put(1L, Checkpoints.settledBackup(client, 1, oracle, TIMEOUT));
      Instant between = null;
      for (long id = 2; id <= 4; id++) {
        if (id == 4) {
          Thread.sleep(20);
          between = Instant.now();
          Thread.sleep(20);
        }
        TransferLoad load = new TransferLoad(client, accounts, seed + id, 6, 50);
        load.start();
        try {
          load.awaitAcknowledged(60, TIMEOUT);
        } finally {
          load.stop(TIMEOUT);
        }
        client.deposit(accounts.get((int) id), id * 1_000);
        oracle = oracle.plus(accounts.get((int) id), id * 1_000);
        balancesAt.put(id, Checkpoints.settledBackup(client, id, oracle, TIMEOUT));
      }
      afterPointThree = between;
      phases.mark("backups 1 to 4");

      // a cluster that holds data refuses, naming the broker and what to do
      HttpResponse<String> refused = post(source, "{\"backupId\": 1}");
      assertThat(refused.statusCode()).isEqualTo(409);
      assertThat(refused.body())
          .contains("broker 0 holds data")
          .contains("data.restoreMode")
          .contains("Nothing was started");
      assertThat(status(source).path("state").asText()).isEqualTo("NOT_IN_RESTORE_MODE");
      awaitPointsArchivedThenDeleteTheirBackups(store, 3, 4);
      phases.mark("backups 3 and 4 deleted: restore points only");
    }

    // restore backup 1 over HTTP
    try (EmbeddedCluster restored = cluster(directory.resolve("by-id"), store, true, false)) {
      restored.start();
      assertThat(status(restored).path("state").asText()).isEqualTo("WAITING");
      for (String bad :
          List.of(
              "",
              "[1]",
              "{}",
              "{\"backupId\": 0}",
              "{\"backupId\": 1, \"latest\": true}",
              "{\"time\": \"yesterday\"}",
              "{\"latest\": false}",
              "{\"backup\": 1}")) {
        HttpResponse<String> answer = post(restored, bad);
        assertThat(answer.statusCode()).as("POST %s", bad).isEqualTo(400);
        assertThat(answer.body()).as("POST %s", bad).contains("Expected");
      }
      HttpResponse<String> missing = post(restored, "{\"backupId\": 99}");
      assertThat(missing.statusCode()).isEqualTo(409);
      assertThat(missing.body()).contains("99");
      assertThat(status(restored).path("state").asText())
          .as("a failed start leaves the cluster restorable")
          .isIn("FAILED", "WAITING");

      HttpResponse<String> accepted = post(restored, "{\"backupId\": 1}");
      assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
      JsonNode started = JSON.readTree(accepted.body());
      assertThat(started.path("selection").asText()).isEqualTo("backup 1");
      assertThat(started.path("backupId").asLong()).isEqualTo(1);
      JsonNode done = awaitCompleted(restored);
      assertThat(done.path("partitions")).hasSize(3);
      assertThat(done.path("partitions"))
          .allSatisfy(p -> assertThat(p.path("phase").asText()).isEqualTo("VERIFIED"))
          // what each replica restored is still said once it runs
          .allSatisfy(
              p -> {
                assertThat(p.path("bytesTotal").asLong()).isPositive();
                assertThat(p.path("bytesDone").asLong()).isEqualTo(p.path("bytesTotal").asLong());
              });
      restored.awaitHealthy();
      LedgerOracle.awaitBalances(restored.client(), balancesAt.get(1L), "backup 1", TIMEOUT);
      HttpResponse<String> again = post(restored, "{\"backupId\": 2}");
      assertThat(again.statusCode()).isEqualTo(409);
      assertThat(again.body()).contains("already");
      phases.mark("backup 1 restored through HTTP");
    }

    // restore to a time after point 3 over gRPC: backup 2 and the archived log
    try (EmbeddedCluster restored = cluster(directory.resolve("by-time"), store, true, false)) {
      restored.start();
      assertThatThrownBy(() -> restored.admin().restore(RestoreRequest.getDefaultInstance()))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT))
          .hasMessageContaining("none is set");
      RestoreStatus started =
          restored
              .admin()
              .restore(
                  RestoreRequest.newBuilder()
                      .setTime(
                          Timestamp.newBuilder()
                              .setSeconds(afterPointThree.getEpochSecond())
                              .setNanos(afterPointThree.getNano()))
                      .build());
      assertThat(started.getBackupId()).isEqualTo(2);
      assertThat(started.getRestorePointId()).isEqualTo(3);
      await("the restore to point 3 COMPLETED")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                RestoreStatus status =
                    restored.admin().getRestoreStatus(GetRestoreStatusRequest.getDefaultInstance());
                assertThat(status.getState()).as(status.toString()).isEqualTo("COMPLETED");
              });
      restored.awaitHealthy();
      LedgerOracle.awaitBalances(restored.client(), balancesAt.get(3L), "restore point 3", TIMEOUT);
      phases.mark("point 3 restored through gRPC");
    }

    // restore point 4 by id over HTTP: backup 2 and the archived log past point 3
    try (EmbeddedCluster restored = cluster(directory.resolve("by-point"), store, true, false)) {
      restored.start();
      HttpResponse<String> accepted = post(restored, "{\"checkpointId\": 4}");
      assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
      JsonNode started = JSON.readTree(accepted.body());
      // backup 2, or backup 3 when the cluster restored to point 3 completed it again in this
      // store (processing the kept CREATE(3) takes that checkpoint's backup): either base, with
      // the archived log up to point 4, is the state at point 4
      assertThat(started.path("backupId").asLong()).isIn(2L, 3L);
      assertThat(started.path("restorePointId").asLong()).isEqualTo(4);
      awaitCompleted(restored);
      restored.awaitHealthy();
      LedgerOracle.awaitBalances(restored.client(), balancesAt.get(4L), "restore point 4", TIMEOUT);
      phases.mark("point 4 restored through HTTP");
    }

    // negative control: partition 2's copy of backup 2 records another digest; the files are
    // intact, so only the restored leader's digest check can tell, and the restore must FAIL
    recordAnotherDigest(store, new BackupIdentifier(1, 2, 2));
    try (EmbeddedCluster restored = cluster(directory.resolve("tampered"), store, true, false)) {
      restored.start();
      HttpResponse<String> accepted = post(restored, "{\"backupId\": 2}");
      assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
      JsonNode[] last = new JsonNode[1];
      await("the restore FAILED on the digest check")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                last[0] = status(restored);
                assertThat(last[0].path("state").asText())
                    .as(last[0].toString())
                    .isEqualTo("FAILED");
              });
      assertThat(last[0].toString()).contains("the digest check failed on partition 2");
      assertThat(last[0].path("partitions"))
          .anySatisfy(
              p -> {
                assertThat(p.path("partitionId").asInt()).isEqualTo(2);
                assertThat(p.path("phase").asText()).isEqualTo("FAILED");
              });
      // partition 1's digest matched, yet it takes no command: the cluster is not restored
      assertThatThrownBy(() -> restored.client().deposit(accounts.get(0), 1))
          .as("a deposit on partition 1 of a cluster whose restore FAILED")
          .isInstanceOf(CairnClientException.class)
          .hasMessageContaining("waits for every partition's digest check");
      phases.mark("a wrong digest fails the restore");
    }
  }

  /** Rewrites the copy's manifest (sealed again) with another state digest of the same length. */
  private static void recordAnotherDigest(Path store, BackupIdentifier id) throws Exception {
    Path manifest = new StoreLayout(store).manifestFile(id);
    String json = Files.readString(manifest);
    Files.writeString(
        manifest,
        ManifestTampering.rewrite(
            json,
            root -> {
              var descriptor =
                  (com.fasterxml.jackson.databind.node.ObjectNode) root.get("descriptor");
              String digest = descriptor.get("stateDigest").asText();
              char first = digest.charAt(0) == '0' ? '1' : '0';
              descriptor.put("stateDigest", first + digest.substring(1));
            }));
  }

  private static void awaitPointsArchivedThenDeleteTheirBackups(Path store, long... ids)
      throws Exception {
    ExecutorService executor = Executors.newFixedThreadPool(2);
    try (var fs =
        ClusterRestore.filesystem(store, BackupEncryption.off()).apply(executor, executor)) {
      await("restore points " + java.util.Arrays.toString(ids) + " archived on every partition")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .until(
              () -> {
                for (long id : ids) {
                  for (int partition = 1; partition <= 3; partition++) {
                    if (new LogArchive(fs.archive(), partition).point(id).get().isEmpty()) {
                      return false;
                    }
                  }
                }
                return true;
              });
      for (long id : ids) {
        for (int partition = 1; partition <= 3; partition++) {
          // replication factor 1: partition p's only copy is node p-1's
          fs.delete(new BackupIdentifier(partition - 1, partition, id)).get();
        }
      }
    } finally {
      executor.shutdownNow();
    }
  }

  private static JsonNode awaitCompleted(EmbeddedCluster cluster) {
    JsonNode[] last = new JsonNode[1];
    await("the restore COMPLETED")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              last[0] = status(cluster);
              assertThat(last[0].path("state").asText())
                  .as(last[0].toString())
                  .isEqualTo("COMPLETED");
            });
    return last[0];
  }

  private static HttpResponse<String> post(EmbeddedCluster cluster, String body) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(restoreUri(cluster))
            .timeout(TIMEOUT)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode status(EmbeddedCluster cluster) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(restoreUri(cluster)).timeout(TIMEOUT).GET().build();
    HttpResponse<String> answer =
        HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return JSON.readTree(answer.body());
  }

  private static URI restoreUri(EmbeddedCluster cluster) {
    return cluster.gatewayManagementUri().resolve("/actuator/restore");
  }

  /**
   * The source archives its log; the restored clusters do not (their logs leave the archived
   * history after the restored point, which the archiver would refuse to overwrite).
   */
  private static EmbeddedCluster cluster(
      Path dataDirectory, Path store, boolean restoreMode, boolean archive) {
    return EmbeddedCluster.builder()
        .brokers(3)
        .partitions(3)
        .replicationFactor(1)
        .backupStore(BackupStoreSpec.filesystem(store))
        .dataDirectory(dataDirectory)
        .brokerSetting("data.restoreMode", Boolean.toString(restoreMode))
        .brokerSetting("backup.archive.enabled", Boolean.toString(archive))
        .brokerSetting("backup.archive.interval", "200ms")
        .brokerSetting("processing.creditRetryInterval", "100ms")
        .brokerSetting("processing.creditRetryIntervalMax", "200ms")
        .gatewayRequestTimeout(Duration.ofSeconds(5))
        .build();
  }
}
