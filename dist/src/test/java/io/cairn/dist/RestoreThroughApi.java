package io.cairn.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.client.CairnClient;
import io.cairn.client.CairnClientException;
import io.cairn.client.ErrorCode;
import io.cairn.client.RestoreFrom;
import io.cairn.client.RestoreStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A backup restored as an operator restores one through the API: a new cluster of processes (three
 * brokers in restore mode with empty data directories, and a gateway) is started, asked to restore
 * it, and watched until the restore ends. On a store that fails now and then the restore may end
 * FAILED; it must then say so by the name of a store problem, and the operator starts again on
 * empty directories ({@link Attempt#failedByTheStore}).
 */
final class RestoreThroughApi {

  /** The problems a restore names when the store failed it (docs/troubleshooting.md). */
  private static final List<String> STORE_PROBLEMS = List.of("STORE_FAILED", "STORE_TIMEOUT");

  private final Path dist;
  private final Map<String, String> storeSettings;
  private final Duration timeout;
  private final String context;

  /**
   * @param storeSettings the store's keys, as environment variables
   * @param timeout how long the start and the restore each may take
   * @param context the run's seed and history, for failures
   */
  RestoreThroughApi(
      Path dist, Map<String, String> storeSettings, Duration timeout, String context) {
    this.dist = dist;
    this.storeSettings = Map.copyOf(storeSettings);
    this.timeout = timeout;
    this.context = context;
  }

  /**
   * One attempt: its cluster (the caller closes it) and how the restore ended.
   *
   * @param status COMPLETED, or FAILED
   * @param storeFailure the store problem a FAILED restore names, empty when it COMPLETED
   */
  record Attempt(
      ClusterProcesses cluster,
      CairnClient client,
      RestoreStatus status,
      Optional<String> storeFailure)
      implements AutoCloseable {

    boolean completed() {
      return status.state().equals("COMPLETED");
    }

    boolean failedByTheStore() {
      return storeFailure.isPresent();
    }

    @Override
    public void close() {
      try {
        client.close();
      } finally {
        cluster.close();
      }
    }
  }

  /**
   * Restores {@code backupId} into a new cluster in {@code directory} (which must not exist).
   *
   * @param storeMayFail whether a FAILED restore naming a store problem is an outcome (the store
   *     behind a fault proxy that is failing now and then); otherwise it must COMPLETE
   * @throws AssertionError when the restore fails otherwise, or does not end in time
   */
  Attempt restore(Path directory, long backupId, boolean storeMayFail) throws Exception {
    ClusterProcesses cluster = new ClusterProcesses(dist, Files.createDirectory(directory));
    CairnClient client = null;
    try {
      client =
          CairnClient.builder()
              .gateway(cluster.gatewayAddress())
              .requestTimeout(Duration.ofSeconds(30)) // resolving the backup reads a slow store
              .build();
      storeSettings.forEach(cluster::setting);
      cluster.setting("CAIRN_DATA_RESTOREMODE", "true");
      for (int node = 0; node < ClusterProcesses.BROKERS; node++) {
        cluster.startBroker(node);
      }
      cluster.startGateway();
      Optional<CairnClientException> refused = ask(client, backupId);
      if (refused.isPresent()) {
        // the first broker failed to resolve the backup, or the gateway's deadline passed while
        // it did (the others were never asked): on a failing or slow store, start again
        String detail = refused.get().code() + ": " + refused.get().getMessage();
        boolean byTheStore =
            refused.get().code() == ErrorCode.DEADLINE_EXCEEDED
                || namesAStoreProblem(refused.get().getMessage());
        assertThat(storeMayFail && byTheStore)
            .as("restore of backup %d refused (%s): %s", backupId, context, detail)
            .isTrue();
        return new Attempt(cluster, client, failed(backupId, detail), Optional.of(detail));
      }
      RestoreStatus status = awaitDone(client, backupId);
      Optional<String> storeFailure = Optional.empty();
      if (!status.state().equals("COMPLETED")) {
        String details = String.join("; ", failures(status));
        assertThat(storeMayFail && !failures(status).isEmpty())
            .as("restore of backup %d (%s): %s", backupId, context, status)
            .isTrue();
        assertThat(failures(status))
            .as("restore of backup %d failed (%s): %s", backupId, context, status)
            .allSatisfy(detail -> assertThat(namesAStoreProblem(detail)).as(detail).isTrue());
        storeFailure = Optional.of(details);
      }
      return new Attempt(cluster, client, status, storeFailure);
    } catch (Exception | AssertionError e) {
      try {
        if (client != null) {
          client.close();
        }
      } finally {
        cluster.close();
      }
      throw e;
    }
  }

  /**
   * Asks until the restore started, on every broker or on some (a broker that failed to start it
   * shows FAILED in the status); the refusal when the first broker failed to resolve the backup, or
   * the deadline when the answer did not come in time (brokers may then never have been asked).
   */
  private Optional<CairnClientException> ask(CairnClient client, long backupId) {
    AtomicReference<CairnClientException> refusal = new AtomicReference<>();
    await("the restore of backup " + backupId + " accepted (" + context + ")")
        .atMost(timeout)
        .pollInterval(Duration.ofSeconds(1))
        .ignoreExceptionsMatching(
            e -> e instanceof CairnClientException c && c.code() == ErrorCode.UNAVAILABLE)
        .until(
            () -> {
              try {
                return client.restore(RestoreFrom.backup(backupId)) != null;
              } catch (CairnClientException e) {
                if (e.code() == ErrorCode.UNAVAILABLE && startedSomewhere(client)) {
                  return true; // not every broker started it: the status shows which failed
                }
                if (e.code() != ErrorCode.FAILED_PRECONDITION
                    && e.code() != ErrorCode.DEADLINE_EXCEEDED) {
                  throw e; // UNAVAILABLE: a broker or the gateway is not up yet, ask again
                }
                refusal.set(e);
                return true;
              }
            });
    return Optional.ofNullable(refusal.get());
  }

  private static boolean startedSomewhere(CairnClient client) {
    try {
      return client.restoreStatus().brokers().stream()
          .anyMatch(b -> !b.phase().equals("WAITING") && !b.phase().equals("UNREACHABLE"));
    } catch (CairnClientException e) {
      return false;
    }
  }

  private RestoreStatus awaitDone(CairnClient client, long backupId) {
    AtomicReference<RestoreStatus> status = new AtomicReference<>();
    await("the restore of backup " + backupId + " done (" + context + ")")
        .atMost(timeout)
        .pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions()
        .until(
            () -> {
              status.set(client.restoreStatus());
              return status.get().isDone();
            });
    return status.get();
  }

  private static List<String> failures(RestoreStatus status) {
    return status.brokers().stream()
        .filter(broker -> broker.phase().equals("FAILED"))
        .map(broker -> "broker " + broker.nodeId() + ": " + broker.detail())
        .toList();
  }

  private static boolean namesAStoreProblem(String detail) {
    return STORE_PROBLEMS.stream().anyMatch(problem -> detail.contains(problem + ": "));
  }

  private static RestoreStatus failed(long backupId, String detail) {
    return new RestoreStatus(
        "FAILED",
        "backup " + backupId,
        backupId,
        0,
        List.of(new RestoreStatus.Broker(0, "FAILED", detail)),
        List.of());
  }
}
