package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.backups3.testserver.FaultInjectingProxy;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.ObjectLockEmulation;
import io.cairn.backups3.testserver.S3ServerProcess;
import io.cairn.client.BackupInfo;
import io.cairn.client.BackupSchedule;
import io.cairn.client.CairnClient;
import io.cairn.qa.support.LedgerOracle;
import io.cairn.qa.support.Phases;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Immutable backups on a cluster: three brokers back up every 2 s to S3Mock through a proxy that
 * emulates S3 Object Lock ({@link ObjectLockEmulation}), with {@code backup.s3.objectLockMode:
 * governance}, a 10 s lock (held 27 s after a write, with the store's retry and clock margins) and
 * {@code backup.retention.maxCount: 1}. Retention finds every older backup due at once but keeps
 * each until its lock ends, saying until when over gRPC and HTTP; the store's credentials cannot
 * remove a locked version meanwhile; and each backup leaves the store only after its lock ended —
 * none earlier.
 */
@ExtendWith(LocalS3Servers.class)
// mostly waits for the locks to end: it runs beside the other classes
@Execution(ExecutionMode.CONCURRENT)
final class ImmutableBackupsIT {

  private static final Duration LOCK = Duration.ofSeconds(10);

  /**
   * The lock, plus what two attempts of at most 5 s with 1 s between them may add, plus the clocks'
   * allowance: how long after a backup's last write retention keeps it.
   */
  private static final Duration HOLD = LOCK.plusSeconds(2 * (5 + 1)).plusSeconds(5);

  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final String BUCKET = "cairn-immutable";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path directory;

  @Test
  void shouldKeepEachDueBackupUntilItsLockEndsAndSaySo() throws Exception {
    Phases phases = new Phases("ImmutableBackupsIT");
    LocalS3Servers.Running s3 = LocalS3Servers.get(LocalS3Servers.Kind.S3MOCK);
    s3.createLockedBucket(BUCKET, true);
    ObjectLockEmulation lock = new ObjectLockEmulation(s3.client(), BUCKET);
    try (FaultInjectingProxy proxy = new FaultInjectingProxy(s3.process().endpoint()).refuse(lock);
        EmbeddedCluster cluster =
            EmbeddedCluster.builder()
                .brokers(3)
                .partitions(2)
                .replicationFactor(3)
                .backupStore(BackupStoreSpec.s3(settings(proxy)))
                .dataDirectory(directory.resolve("data"))
                .brokerSetting("backup.schedule.interval", "2s")
                .brokerSetting("backup.retention.maxCount", "1")
                .build()) {
      cluster.start().awaitHealthy();
      CairnClient client = cluster.client();
      LedgerOracle.fund(client, LedgerOracle.accounts(cluster, "immutable", 2), 1_000);
      phases.mark("cluster up, accounts funded");

      // Retention gives the older backups up at once, but keeps them: locked, and says until when.
      Map<Long, Instant> lockedUntil = new TreeMap<>();
      await("a retention pass that keeps backups for their lock")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(250))
          .ignoreExceptions()
          .until(() -> !locked(client).isEmpty());
      Instant seen = Instant.now();
      List<BackupSchedule.LockedBackup> first = locked(client);
      first.forEach(l -> lockedUntil.put(l.backupId(), l.lockedUntil()));
      assertThat(first)
          .allSatisfy(
              l ->
                  assertThat(l.lockedUntil())
                      .isAfter(seen.minusSeconds(1))
                      .isBefore(seen.plus(HOLD).plusSeconds(5)));
      assertThat(listed(client)).containsAll(lockedUntil.keySet());
      JsonNode lastPass = httpSchedule(cluster).path("retention").path("lastPass");
      assertThat(lastPass.path("lockedBackups").isArray()).as(lastPass.toString()).isTrue();
      assertThat(lastPass.path("lockedBackups").get(0).path("lockedUntil").asText())
          .as(lastPass.toString())
          .isNotEmpty();
      phases.mark("retention keeps locked backups " + lockedUntil);

      // Whoever holds the store's credentials cannot remove a locked version meanwhile.
      long victim = lockedUntil.keySet().iterator().next();
      assertThat(deleteEveryVersionOf(s3, proxy, victim))
          .as("deleting the versions of backup %d", victim)
          .isNotEmpty()
          .containsOnly("AccessDenied");

      // Each backup leaves the store after its lock ended, never before.
      Set<Long> deleted = new TreeSet<>();
      await("backups " + first + " deleted once their locks ended")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(250))
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                Instant now = Instant.now();
                locked(client).forEach(l -> lockedUntil.putIfAbsent(l.backupId(), l.lockedUntil()));
                Set<Long> present = Set.copyOf(listed(client));
                for (Map.Entry<Long, Instant> entry : lockedUntil.entrySet()) {
                  if (!present.contains(entry.getKey()) && deleted.add(entry.getKey())) {
                    assertThat(now)
                        .as("backup %d gone, locked until %s", entry.getKey(), entry.getValue())
                        .isAfterOrEqualTo(entry.getValue());
                  }
                }
                assertThat(deleted)
                    .containsAll(
                        first.stream().map(BackupSchedule.LockedBackup::backupId).toList());
              });
      phases.mark("deleted after their locks ended: " + deleted);
    }
  }

  private static Map<String, String> settings(FaultInjectingProxy proxy) {
    Map<String, String> settings = new TreeMap<>();
    settings.put("bucket", BUCKET);
    settings.put("endpoint", proxy.endpoint().toString());
    settings.put("region", LocalS3Servers.REGION);
    settings.put("accessKeyId", S3ServerProcess.ACCESS_KEY);
    settings.put("secretAccessKey", S3ServerProcess.SECRET_KEY);
    settings.put("pathStyleAccess", "true");
    settings.put("objectLockMode", "governance");
    settings.put("objectLockPeriod", LOCK.toSeconds() + "s");
    settings.put("maxAttempts", "2");
    settings.put("apiCallTimeout", "5s");
    settings.put("retryBackoffMax", "1s");
    return settings;
  }

  private static List<BackupSchedule.LockedBackup> locked(CairnClient client) {
    BackupSchedule.RetentionPass pass = client.backupSchedule().retention().lastPass();
    return pass == null ? List.of() : pass.lockedBackups();
  }

  private static List<Long> listed(CairnClient client) {
    return client.listAllBackups().stream().map(BackupInfo::backupId).toList();
  }

  private static JsonNode httpSchedule(EmbeddedCluster cluster) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(cluster.gatewayManagementUri() + "/actuator/backups/schedule"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  /** Tries to delete every version of backup {@code id}'s objects; the error code of each try. */
  private static List<String> deleteEveryVersionOf(
      LocalS3Servers.Running s3, FaultInjectingProxy proxy, long id) throws Exception {
    String idPart = String.format("/%019d/", id);
    try (var attacker = s3.clientThrough(proxy.endpoint())) {
      return attacker
          .listObjectVersions(r -> r.bucket(BUCKET))
          .get(30, TimeUnit.SECONDS)
          .versions()
          .stream()
          .filter(v -> v.key().contains(idPart))
          .map(
              v -> {
                try {
                  attacker
                      .deleteObject(r -> r.bucket(BUCKET).key(v.key()).versionId(v.versionId()))
                      .get(30, TimeUnit.SECONDS);
                  return "deleted " + v.key();
                } catch (Exception e) {
                  return e.getCause() instanceof S3Exception error
                      ? error.awsErrorDetails().errorCode()
                      : e.toString();
                }
              })
          .collect(Collectors.toList());
    }
  }
}
