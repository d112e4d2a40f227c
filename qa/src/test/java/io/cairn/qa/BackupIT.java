package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.client.BackupInfo;
import io.cairn.client.BackupPage;
import io.cairn.client.BackupState;
import io.cairn.client.BackupTaken;
import io.cairn.client.CairnClient;
import io.cairn.client.ErrorCode;
import io.cairn.client.PartitionBackupInfo;
import io.cairn.qa.support.Calls;
import io.cairn.qa.support.Checkpoints;
import io.cairn.qa.support.LedgerOracle;
import io.cairn.qa.support.Seeds;
import io.cairn.qa.support.TransferLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Backups of a 3-broker, 3-partition, replication factor 3 cluster with the filesystem store,
 * driven through the gateway's gRPC API (and its management HTTP endpoints where they differ). One
 * cluster for the class; each test takes ids higher than any taken before.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class BackupIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final AtomicLong ids = new AtomicLong(10);
  private EmbeddedCluster cluster;
  private CairnClient client;

  @BeforeAll
  void startCluster() {
    cluster =
        EmbeddedCluster.builder().brokers(3).partitions(3).replicationFactor(3).build().start();
    cluster.awaitHealthy();
    client = cluster.client();
  }

  @AfterAll
  void closeCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private long nextId() {
    return ids.addAndGet(10);
  }

  @Test
  void shouldCompleteABackupTakenUnderTransferLoadOnEveryPartition() throws Exception {
    // given transfers running between accounts on every partition
    List<String> accounts = LedgerOracle.accounts(cluster, "hot", 3);
    LedgerOracle oracle = LedgerOracle.fund(client, accounts, 100_000);
    TransferLoad load =
        new TransferLoad(client, accounts, Seeds.seed("BackupIT.underLoad"), 12, 50);
    load.start();
    long id = nextId();
    Map<Integer, Long> positions;
    BackupInfo completed;
    try {
      load.awaitAcknowledged(300, TIMEOUT);

      // when a backup is taken
      BackupTaken taken = client.takeBackup(id);
      long acknowledgedAtTake = load.acknowledged();

      // then every partition is at the checkpoint (written by this request, or before it came
      // through a transfer's credit stamped with the id), and the backup completes everywhere
      positions = Checkpoints.assertTakenOnEveryPartition(taken, id, 3);
      completed = awaitCompleted(id);
      // while transfers kept being acknowledged: the backup did not stop processing
      load.awaitAcknowledged(acknowledgedAtTake + 200, TIMEOUT);
    } finally {
      load.stop(TIMEOUT);
    }
    assertThat(completed.failureReason()).isEmpty();
    assertThat(completed.partitions())
        .extracting(PartitionBackupInfo::partitionId)
        .containsExactly(1, 2, 3);
    String version = cluster.broker(0).info().version();
    for (PartitionBackupInfo partition : completed.partitions()) {
      assertThat(partition.state()).isEqualTo(BackupState.COMPLETED);
      assertThat(partition.failureReason()).isEmpty();
      assertThat(partition.checkpointPosition()).isPositive();
      if (positions.containsKey(partition.partitionId())) {
        assertThat(partition.checkpointPosition())
            .isEqualTo(positions.get(partition.partitionId()));
      }
      assertThat(partition.nodeId()).isIn(cluster.brokerIds());
      assertThat(partition.brokerVersion()).isEqualTo(version);
      assertThat(partition.createdAt()).isNotNull();
      assertThat(partition.lastUpdatedAt()).isAfterOrEqualTo(partition.createdAt());
      assertThat(partition.sizeBytes()).isPositive();
      assertThat(partition.fileCount()).isPositive();
      assertThat(partition.stateDigest()).matches("[0-9a-f]{32}");
      // and the store holds its manifest
      assertThat(manifest(partition.partitionId(), id, partition.nodeId())).isRegularFile();
    }
    // and no money was made or lost, no acknowledged transfer lost
    oracle.awaitConserved(client, load, TIMEOUT);
  }

  @Test
  void shouldListBackupsNewestFirstAndDeleteThem() {
    // given three completed backups
    long first = nextId();
    long second = nextId();
    long third = nextId();
    for (long id : List.of(first, second, third)) {
      client.takeBackup(id);
      awaitCompleted(id);
    }

    // when they are listed two at a time
    List<Long> listed = new ArrayList<>();
    String token = "";
    int pages = 0;
    do {
      BackupPage page = client.listBackups(2, token);
      assertThat(page.backups()).hasSizeLessThanOrEqualTo(2);
      page.backups().forEach(backup -> listed.add(backup.backupId()));
      if (pages == 0) {
        // then the first page starts with the newest
        assertThat(page.backups().get(0).backupId()).isEqualTo(third);
        assertThat(page.isLast()).isFalse();
      }
      token = page.nextPageToken();
      pages++;
    } while (!token.isEmpty() && pages < 100);
    // and the pages together hold every backup once, newest first
    assertThat(listed).doesNotHaveDuplicates().isSortedAccordingTo(Comparator.reverseOrder());
    assertThat(listed).contains(first, second, third);
    assertThat(client.listAllBackups()).extracting(BackupInfo::backupId).isEqualTo(listed);

    // when the middle one is deleted
    client.deleteBackup(second);

    // then it is gone everywhere, and the others are untouched
    assertThat(
            Calls.clientFailure(ErrorCode.NOT_FOUND, () -> client.getBackup(second)).getMessage())
        .contains(Long.toString(second));
    assertThat(client.listAllBackups())
        .extracting(BackupInfo::backupId)
        .contains(first, third)
        .doesNotContain(second);
    assertThat(client.getBackup(first).state()).isEqualTo(BackupState.COMPLETED);
    assertThat(client.getBackup(third).state()).isEqualTo(BackupState.COMPLETED);
    assertThat(manifestsOf(second)).isEmpty();
    assertThat(manifestsOf(third)).hasSize(3);
    // and deleting it again succeeds without changing anything
    client.deleteBackup(second);
    assertThat(client.getBackup(first).state()).isEqualTo(BackupState.COMPLETED);

    // and the management HTTP endpoints list and delete the same backups
    assertThat(cluster.managementClient().listBackups())
        .extracting(BackupInfo::backupId)
        .contains(first, third)
        .doesNotContain(second);
    cluster.managementClient().deleteBackup(first);
    Calls.clientFailure(ErrorCode.NOT_FOUND, () -> cluster.managementClient().getBackup(first));
    assertThat(client.listAllBackups()).extracting(BackupInfo::backupId).doesNotContain(first);
    assertThat(manifestsOf(first)).isEmpty();
  }

  @Test
  void shouldRefuseABackupIdNotHigherThanTheLatestAndChangeNothing() {
    // given a completed backup
    long latest = nextId();
    client.takeBackup(latest);
    awaitCompleted(latest);
    List<BackupInfo> before = client.listAllBackups();

    // when the same id, a lower id and a lower id over HTTP are taken
    String same =
        Calls.clientFailure(ErrorCode.ALREADY_EXISTS, () -> client.takeBackup(latest)).getMessage();
    String lower =
        Calls.clientFailure(ErrorCode.ALREADY_EXISTS, () -> client.takeBackup(latest - 1))
            .getMessage();
    String lowerOverHttp =
        Calls.clientFailure(
                ErrorCode.ALREADY_EXISTS, () -> cluster.managementClient().takeBackup(1))
            .getMessage();

    // then each is refused naming the latest id
    assertThat(same).contains(Long.toString(latest));
    assertThat(lower).contains(Long.toString(latest)).contains(Long.toString(latest - 1));
    assertThat(lowerOverHttp).contains(Long.toString(latest));
    // and nothing changed: the same backups, no new one, and the next higher id still works
    assertThat(client.listAllBackups()).isEqualTo(before);
    Calls.clientFailure(ErrorCode.NOT_FOUND, () -> client.getBackup(latest - 1));
    long next = nextId();
    assertThat(client.takeBackup(next).partitions())
        .allSatisfy(p -> assertThat(p.created()).isTrue());
    awaitCompleted(next);
  }

  private BackupInfo awaitCompleted(long id) {
    AtomicReference<BackupInfo> info = new AtomicReference<>();
    await("backup " + id + " COMPLETED on every partition")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(50))
        .ignoreExceptionsMatching(Calls::notYet)
        .until(
            () -> {
              info.set(client.getBackup(id));
              assertThat(info.get().state())
                  .as("state of backup %s: %s", id, info.get().failureReason())
                  .isNotEqualTo(BackupState.FAILED);
              return info.get().state() == BackupState.COMPLETED;
            });
    return info.get();
  }

  private Path manifest(int partitionId, long id, int nodeId) {
    return cluster
        .backupDirectory()
        .orElseThrow()
        .resolve("manifests")
        .resolve(Integer.toString(partitionId))
        .resolve(Long.toString(id))
        .resolve(Integer.toString(nodeId))
        .resolve("manifest.json");
  }

  private List<Path> manifestsOf(long id) {
    Path manifests = cluster.backupDirectory().orElseThrow().resolve("manifests");
    try (Stream<Path> files = Files.walk(manifests)) {
      return files
          .filter(file -> file.getFileName().toString().equals("manifest.json"))
          .filter(
              file ->
                  file.getParent().getParent().getFileName().toString().equals(Long.toString(id)))
          .toList();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
