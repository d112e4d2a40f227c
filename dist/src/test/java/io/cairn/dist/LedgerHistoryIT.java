package io.cairn.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.backups3.testserver.FaultInjectingProxy;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.S3ServerProcess;
import io.cairn.client.BackupInfo;
import io.cairn.client.BackupState;
import io.cairn.client.CairnClient;
import io.cairn.client.CairnClientException;
import io.cairn.client.ErrorCode;
import io.cairn.dist.ClusterProcesses.CliResult;
import io.cairn.dist.LedgerHistory.Draw;
import io.cairn.dist.LedgerHistory.Kind;
import io.cairn.dist.LedgerHistory.Operation;
import io.cairn.dist.LedgerHistory.Outcome;
import io.cairn.qa.network.ProxyNetwork;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Jepsen-style test of the real processes: three brokers and a gateway started by the
 * distribution's scripts, every link between them through a relay on loopback. Clients send
 * deposits and transfers through the gateway and record each as invoked, then acknowledged, refused
 * or of unknown outcome ({@link LedgerHistory}); backups are taken through the API all along and by
 * the schedule every 30 s, and the log archive takes a marker every 2 s. Every minute the newest
 * completed backup is restored through the API into a new cluster of processes ({@link
 * RestoreThroughApi}; through the same failing store: a restore the store fails must say so, and is
 * started again on empty directories), and the history as of that backup must explain the restored
 * balances. The store is S3 (S3Proxy behind a fault proxy; {@code -Dcairn.history.store=fs} for the
 * filesystem). Meanwhile the {@link Nemesis} kills, pauses and cuts off brokers, makes the S3
 * server fail, and restarts the whole cluster once.
 *
 * <p>Then, everything healed:
 *
 * <ul>
 *   <li>the {@link LedgerHistoryChecker} must explain the final balances by the history (nothing
 *       acknowledged lost or applied twice, nothing refused applied, money conserved), and the
 *       balances must then stay put;
 *   <li>no backup may stay IN_PROGRESS; every COMPLETED backup must verify ({@code cairn backup
 *       verify}: its files downloaded and checked, its state rebuilt and its digests compared); a
 *       restore point after the load must verify the same way;
 *   <li>the newest completed backup is restored through the API into a new cluster of processes in
 *       restore mode: every partition passes its digest check, and the history as of that backup
 *       must explain the restored balances.
 * </ul>
 *
 * <p>{@code -Dcairn.seed=N} repeats the nemesis's and the clients' choices, {@code
 * -Dcairn.history.duration=5m} runs longer (10 minutes with {@code -Psimulation}). The history is
 * written to {@code history.txt} in the run's directory, named in every failure.
 */
@ExtendWith(LocalS3Servers.class)
final class LedgerHistoryIT {
  private static final int ACCOUNTS = 16;
  private static final int CLIENTS = 3;
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration RESTORE_EVERY = Duration.ofSeconds(60);
  private static final int RESTORE_ATTEMPTS = 10;

  /** Errors after which the command was not carried out. */
  private static final Set<ErrorCode> REFUSED =
      EnumSet.of(
          ErrorCode.INVALID_ARGUMENT,
          ErrorCode.NOT_FOUND,
          ErrorCode.ALREADY_EXISTS,
          ErrorCode.FAILED_PRECONDITION,
          ErrorCode.RESOURCE_EXHAUSTED,
          ErrorCode.UNAUTHENTICATED,
          ErrorCode.PERMISSION_DENIED);

  private final long seed = Long.getLong("cairn.seed", System.nanoTime());
  private final List<String> accounts = new ArrayList<>();
  private final Map<String, String> storeSettings = new TreeMap<>();
  private final List<AutoCloseable> resources = new ArrayList<>();
  private Path dir;
  private Path historyFile;
  private String context;
  private ProxyNetwork network;
  private ClusterProcesses cluster;
  private Optional<FaultInjectingProxy> storeProxy = Optional.empty();
  private CairnClient client;
  private RestoreThroughApi restores;
  private final AtomicInteger restoredClusters = new AtomicInteger();
  private final List<String> restoredUnderLoad = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (int i = resources.size() - 1; i >= 0; i--) {
      resources.get(i).close();
    }
  }

  @Test
  void shouldExplainTheBalancesAndRestoreTheBackupsByTheHistoryUnderFaults() throws Exception {
    String fallback = Boolean.getBoolean("cairn.simulation.long") ? "10m" : "45s";
    Duration duration =
        Duration.parse("PT" + System.getProperty("cairn.history.duration", fallback));
    System.out.println("LedgerHistoryIT: seed " + seed + " (-Dcairn.seed=" + seed + ")");
    dir =
        Files.createTempDirectory(
            Path.of(System.getProperty("java.io.tmpdir", "target")), "ledger-history-it-");
    historyFile = dir.resolve("history.txt");
    context = "seed " + seed + ", history in " + historyFile;
    startCluster();

    LedgerHistory history = new LedgerHistory();
    Nemesis nemesis = new Nemesis(cluster, network, storeProxy, history, seed);
    runWorkload(history, nemesis, duration);
    history.note("checker", "faults injected: " + nemesis.injected());
    LedgerHistoryChecker.Verdict verdict =
        awaitExplained(client, history.operations(), history, "final balances");
    System.out.println(
        "LedgerHistoryIT: "
            + history.operations().size()
            + " operations, "
            + count(history, Outcome.OK)
            + " ok, "
            + count(history, Outcome.FAIL)
            + " refused, "
            + verdict.unknown()
            + " unknown ("
            + verdict.unknownApplied()
            + " took effect); faults "
            + nemesis.injected()
            + "; restored through the API under load: "
            + restoredUnderLoad);
    assertThat(count(history, Outcome.OK)).as("acknowledged operations").isGreaterThan(100);
    assertThat(verdict.boundsOnly()).as("accounts checked by bounds only").isEmpty();

    long restored = checkBackups(history);
    cluster.close();
    restoreThroughApi(restored, history);
    history.write(historyFile);
  }

  /** Three brokers and a gateway linked through relays, with the store and the accounts. */
  private void startCluster() throws Exception {
    network = closing(new ProxyNetwork());
    Path dist = Path.of(System.getProperty("cairn.dist.directory", "target/cairn"));
    cluster = closing(new ClusterProcesses(dist.toAbsolutePath(), dir, Optional.of(network)));
    if (System.getProperty("cairn.history.store", "s3").equals("s3")) {
      storeProxy = Optional.of(s3Store());
    } else {
      storeSettings.put("CAIRN_BACKUP_FS_BASEPATH", dir.resolve("backups").toString());
    }
    storeSettings.forEach(cluster::setting);
    cluster.setting("CAIRN_BACKUP_ARCHIVE_ENABLED", "true");
    cluster.setting("CAIRN_BACKUP_SCHEDULE_INTERVAL", "30s");
    cluster.setting("CAIRN_BACKUP_SCHEDULE_MARKERINTERVAL", "2s");
    cluster.setting("CAIRN_DATA_SNAPSHOTINTERVAL", "10s");
    for (int node = 0; node < ClusterProcesses.BROKERS; node++) {
      cluster.startBroker(node);
    }
    cluster.startGateway();
    awaitReady(cluster, "a leader for every partition");
    client = closing(client(cluster));
    restores = new RestoreThroughApi(cluster.distribution(), storeSettings, START_TIMEOUT, context);
    for (int i = 0; i < ACCOUNTS; i++) {
      accounts.add("acc-" + i);
      createAccount("acc-" + i);
    }
    checkTheToolsExitCodes();
  }

  /**
   * The distribution's {@code bin/cairn} against the processes: an account it creates is made, one
   * that exists is refused with exit code 5 (ALREADY_EXISTS), a deposit answers its amount.
   */
  private void checkTheToolsExitCodes() throws Exception {
    String account = "tool-" + Long.toUnsignedString(seed, 36);
    assertThat(cluster.cli("account", "create", account).json().get("accountId").asText())
        .isEqualTo(account);
    CliResult again = cluster.cli("account", "create", account);
    assertThat(again.exitCode()).as("exit code of creating an existing account").isEqualTo(5);
    assertThat(cluster.cli("account", "deposit", account, "7").json().get("amount").asLong())
        .isEqualTo(7);
  }

  /**
   * Points the brokers and the tool at a bucket of the S3 server through a fault proxy, which the
   * nemesis makes fail.
   */
  private FaultInjectingProxy s3Store() throws IOException {
    LocalS3Servers.Running s3 = LocalS3Servers.get(LocalS3Servers.Kind.S3PROXY);
    String bucket = "history-" + Long.toUnsignedString(seed, 36);
    s3.createBucket(bucket);
    FaultInjectingProxy proxy = closing(new FaultInjectingProxy(s3.process().endpoint()));
    proxy.slowResponseDelay(Duration.ofSeconds(3));
    storeSettings.put("CAIRN_BACKUP_STORE", "s3");
    storeSettings.put("CAIRN_BACKUP_S3_BUCKET", bucket);
    storeSettings.put("CAIRN_BACKUP_S3_ENDPOINT", proxy.endpoint().toString());
    storeSettings.put("CAIRN_BACKUP_S3_REGION", LocalS3Servers.REGION);
    storeSettings.put("CAIRN_BACKUP_S3_ACCESSKEYID", S3ServerProcess.ACCESS_KEY);
    storeSettings.put("CAIRN_BACKUP_S3_SECRETACCESSKEY", S3ServerProcess.SECRET_KEY);
    storeSettings.put("CAIRN_BACKUP_S3_PATHSTYLEACCESS", "true");
    return proxy;
  }

  /** The clients and the backups run while the nemesis injects faults for {@code duration}. */
  private void runWorkload(LedgerHistory history, Nemesis nemesis, Duration duration)
      throws Exception {
    AtomicBoolean running = new AtomicBoolean(true);
    ExecutorService workers = Executors.newFixedThreadPool(CLIENTS + 2);
    List<Future<?>> work = new ArrayList<>();
    Future<?> restoring;
    try {
      try {
        for (int c = 0; c < CLIENTS; c++) {
          int id = c;
          work.add(workers.submit(() -> runClient(id, history, running)));
        }
        work.add(workers.submit(() -> takeBackups(history, running)));
        restoring =
            workers.submit(
                () -> {
                  restoreThroughout(history, running);
                  return null;
                });
        nemesis.run(duration);
      } finally {
        running.set(false);
        for (Future<?> future : work) {
          future.get(60, TimeUnit.SECONDS);
        }
      }
      // a restore started under load may end after it: with the faults gone, an attempt completes
      try {
        restoring.get(15, TimeUnit.MINUTES);
      } catch (TimeoutException e) {
        throw new AssertionError("Restores through the API still running (" + context + ")", e);
      }
    } finally {
      workers.shutdownNow();
      // a restore thread closes its cluster's processes as it ends
      workers.awaitTermination(60, TimeUnit.SECONDS);
      history.write(historyFile);
    }
  }

  private void runClient(int id, LedgerHistory history, AtomicBoolean running) {
    SplittableRandom random = new SplittableRandom(seed * 31 + id);
    int ops = 0;
    while (running.get()) {
      Draw draw = Draw.next(random, accounts, ops++ < 3 || random.nextInt(4) == 0);
      int op = history.invoke(id, draw.kind(), draw.from(), draw.to(), draw.amount());
      Outcome outcome;
      String detail = "";
      try {
        if (draw.kind() == Kind.DEPOSIT) {
          client.deposit(draw.to(), draw.amount());
        } else {
          client.transfer(draw.from(), draw.to(), draw.amount());
        }
        outcome = Outcome.OK;
      } catch (CairnClientException e) {
        outcome = REFUSED.contains(e.code()) ? Outcome.FAIL : Outcome.INFO;
        detail = e.code() + ": " + e.getMessage();
      }
      history.complete(op, outcome, detail);
      sleepQuietly(outcome == Outcome.INFO ? 250 : 10 + random.nextInt(30));
    }
  }

  private void takeBackups(LedgerHistory history, AtomicBoolean running) {
    while (true) {
      sleepQuietly(8_000);
      if (!running.get()) {
        return; // only backups taken under load: their cut falls between operations
      }
      long backupId = System.currentTimeMillis(); // above every marker's slot id so far
      long asked = history.now();
      try {
        client.takeBackup(backupId);
        history.backupTaken(backupId, asked, history.now());
      } catch (CairnClientException e) {
        history.note("backups", "take " + backupId + ": " + e.code() + ": " + e.getMessage());
      }
    }
  }

  /**
   * Every {@link #RESTORE_EVERY} while the load runs, the newest completed backup taken under load
   * is restored through the API into a new cluster, through the same store as the load's cluster: a
   * restore the store's faults fail is started again on empty directories, as an operator would,
   * until one completes; its balances must be explained by the history as of the backup.
   */
  private void restoreThroughout(LedgerHistory history, AtomicBoolean running) throws Exception {
    long lastStarted = 0;
    while (running.get()) {
      sleepQuietly(2_000);
      Optional<Long> backupId = newestCompletedUnderLoad(history);
      if (backupId.isEmpty() || System.nanoTime() - lastStarted < RESTORE_EVERY.toNanos()) {
        continue;
      }
      lastStarted = System.nanoTime();
      for (int attempt = 1; ; attempt++) {
        Path directory = dir.resolve("restored-" + restoredClusters.incrementAndGet());
        history.note("restores", "restore of backup " + backupId.get() + " into " + directory);
        try (RestoreThroughApi.Attempt restored =
            restores.restore(directory, backupId.get(), true)) {
          if (restored.completed()) {
            awaitReady(restored.cluster(), "a leader for every partition of " + directory);
            awaitExplained(
                restored.client(),
                history.asOfBackup(backupId.get()),
                history,
                "balances restored from " + backupId.get() + " under load");
            restoredUnderLoad.add(
                backupId.get() + (attempt > 1 ? " (attempt " + attempt + ")" : ""));
            break;
          }
          history.note(
              "restores",
              "restore of backup "
                  + backupId.get()
                  + " failed by the store: "
                  + restored.storeFailure().orElseThrow());
        }
        assertThat(attempt)
            .as("attempts to restore backup %d through the API (%s)", backupId.get(), context)
            .isLessThan(RESTORE_ATTEMPTS);
      }
    }
  }

  /** The newest backup taken through the API under load that is COMPLETED, if the cluster says. */
  private Optional<Long> newestCompletedUnderLoad(LedgerHistory history) {
    try {
      Set<Long> taken = history.backupsTaken();
      return client.listAllBackups().stream()
          .filter(b -> b.state() == BackupState.COMPLETED && taken.contains(b.backupId()))
          .map(BackupInfo::backupId)
          .max(Long::compare);
    } catch (CairnClientException e) {
      return Optional.empty(); // the nemesis at work: ask again
    }
  }

  /**
   * Reads the balances until the history explains them (pending credits may still arrive after the
   * faults), then once more a few seconds later: they must not have moved.
   */
  private LedgerHistoryChecker.Verdict awaitExplained(
      CairnClient reader, List<Operation> operations, LedgerHistory history, String what)
      throws Exception {
    AtomicReference<Map<String, Long>> balances = new AtomicReference<>(Map.of());
    AtomicReference<LedgerHistoryChecker.Verdict> verdict = new AtomicReference<>();
    try {
      await(what + " explained by the history (" + context + ")")
          .atMost(SETTLE_TIMEOUT)
          .pollInterval(Duration.ofSeconds(1))
          .ignoreExceptions()
          .until(
              () -> {
                balances.set(readBalances(reader));
                verdict.set(LedgerHistoryChecker.check(operations, balances.get()));
                return verdict.get().valid();
              });
    } catch (ConditionTimeoutException e) {
      history.write(historyFile);
      throw new AssertionError(
          "The "
              + what
              + " "
              + balances.get()
              + " contradict the history ("
              + context
              + "):\n"
              + (verdict.get() == null
                  ? "no balances read"
                  : String.join("\n", verdict.get().problems())),
          e);
    }
    history.note(
        "checker",
        what
            + " explained: "
            + verdict.get().unknownApplied()
            + " of "
            + verdict.get().unknown()
            + " unknown operations took effect; bounds only: "
            + verdict.get().boundsOnly());
    history.write(historyFile);
    Thread.sleep(3_000);
    assertThat(readBalances(reader))
        .as("%s once settled (%s)", what, context)
        .isEqualTo(balances.get());
    return verdict.get();
  }

  /**
   * No backup stays in progress; every completed one verifies (rebuilt, digests compared); a
   * restore point after the load verifies. Returns the newest completed backup taken through the
   * API under load; when none completed (the nemesis may fail them all), one taken after the load.
   */
  private long checkBackups(LedgerHistory history) throws Exception {
    Instant afterLoad = Instant.now();
    Thread.sleep(2_500); // a marker after the load
    List<BackupInfo> backups = new ArrayList<>();
    await("no backup IN_PROGRESS (" + context + ")")
        .atMost(SETTLE_TIMEOUT)
        .pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions()
        .until(
            () -> {
              backups.clear();
              backups.addAll(client.listAllBackups());
              return backups.stream().noneMatch(b -> b.state() == BackupState.IN_PROGRESS);
            });
    List<Long> completed =
        backups.stream()
            .filter(b -> b.state() == BackupState.COMPLETED)
            .map(BackupInfo::backupId)
            .sorted()
            .toList();
    history.note("checker", "backups: " + backups + ", completed " + completed);
    history.write(historyFile);
    String config = cluster.distribution().resolve("config/broker-0.yaml").toString();
    for (long backupId : completed) {
      verifyRebuilt(backupId, config);
    }
    CliResult point =
        cluster.cli("backup", "verify", "--to-time", afterLoad.toString(), "--config", config);
    history.note("checker", "restore point after the load verified: " + point.json());
    List<Long> taken =
        completed.stream().filter(history.backupsTaken()::contains).sorted().toList();
    if (taken.isEmpty()) {
      // every backup asked under load ended FAILED (LEADER_CHANGED) or INCOMPLETE (a partition
      // the request did not reach in time), as they may under the nemesis: restore one asked now
      history.note("checker", "no backup taken through the API under load completed");
      return takeAfterTheLoad(history, config);
    }
    return taken.get(taken.size() - 1);
  }

  /**
   * {@code cairn backup verify <id>} must pass: every file of the backup intact, and the state
   * rebuilt from them matches the digests recorded at its checkpoint.
   */
  private void verifyRebuilt(long backupId, String config) throws Exception {
    CliResult verified =
        cluster.cli("backup", "verify", Long.toString(backupId), "--config", config);
    assertThat(verified.exitCode())
        .as("backup verify %d (%s): %s %s", backupId, context, verified.stdout(), verified.stderr())
        .isZero();
  }

  /** Takes a backup through the API once the load stopped; it must complete and verify. */
  private long takeAfterTheLoad(LedgerHistory history, String config) throws Exception {
    long backupId = System.currentTimeMillis();
    long asked = history.now();
    client.takeBackup(backupId);
    history.backupTaken(backupId, asked, history.now());
    AtomicReference<List<BackupInfo>> backups = new AtomicReference<>(List.of());
    await("backup " + backupId + " taken after the load COMPLETED (" + context + ")")
        .atMost(SETTLE_TIMEOUT)
        .pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions()
        .until(
            () -> {
              backups.set(client.listAllBackups());
              return backups.get().stream()
                  .anyMatch(b -> b.backupId() == backupId && b.state() == BackupState.COMPLETED);
            });
    verifyRebuilt(backupId, config);
    history.note("checker", "backup " + backupId + " taken after the load, completed");
    return backupId;
  }

  /**
   * A new cluster of processes in restore mode restores {@code backupId} through the gateway's API;
   * once every partition passed its digest check, the history as of that backup must explain its
   * balances.
   */
  private void restoreThroughApi(long backupId, LedgerHistory history) throws Exception {
    RestoreThroughApi.Attempt restored =
        closing(restores.restore(dir.resolve("restored"), backupId, false));
    history.note(
        "checker", "backup " + backupId + " restored through the API: " + restored.status());
    awaitReady(restored.cluster(), "a leader for every restored partition");
    awaitExplained(
        restored.client(),
        history.asOfBackup(backupId),
        history,
        "balances restored from " + backupId);
  }

  private void createAccount(String account) {
    await("account " + account + " created")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              try {
                client.createAccount(account);
                return true;
              } catch (CairnClientException e) {
                return e.code() == ErrorCode.ALREADY_EXISTS;
              }
            });
  }

  private Map<String, Long> readBalances(CairnClient reader) {
    Map<String, Long> balances = new TreeMap<>();
    List<CompletableFuture<?>> reads = new ArrayList<>();
    for (String account : accounts) {
      reads.add(
          reader
              .getAccountAsync(account)
              .thenAccept(
                  read -> {
                    synchronized (balances) {
                      balances.put(account, read.balance());
                    }
                  }));
    }
    CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).join();
    return balances;
  }

  private static CairnClient client(ClusterProcesses processes) {
    return CairnClient.builder()
        .gateway(processes.gatewayAddress())
        .requestTimeout(Duration.ofSeconds(3))
        .build();
  }

  private static void awaitReady(ClusterProcesses processes, String what) {
    await(what)
        .atMost(START_TIMEOUT)
        .pollInterval(Duration.ofSeconds(1))
        .until(processes::gatewayReady);
  }

  private <T extends AutoCloseable> T closing(T resource) {
    resources.add(resource);
    return resource;
  }

  private static long count(LedgerHistory history, Outcome outcome) {
    return history.operations().stream().filter(op -> op.outcome() == outcome).count();
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
