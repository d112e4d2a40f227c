package io.cairn.benchmarks.hotpath;

import io.cairn.client.CairnClient;
import io.cairn.scheduler.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Grows the ledger's state for the hot-backup step as {@code LedgerBackupBuilder} does, but through
 * the gateway: accounts with {@value #ID_BYTES}-byte ids (a counter, then random letters and
 * digits, so RocksDB's block compression finds little) are created, {@value #IN_FLIGHT} at once,
 * until broker 0's RocksDB directories (every partition's {@code runtime/}: one replica of the
 * state, table files and write-ahead log) hold the target.
 */
final class StateGrower {

  static final int ID_BYTES = 120;
  static final int IN_FLIGHT = 256;
  private static final int BATCH_MAX = 20_000;
  private static final int BATCH_MIN = 1_000;
  private static final String ID_CHARS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

  private final CairnClient client;
  private final Clock clock;
  private final Consumer<String> progress;

  StateGrower(CairnClient client, Clock clock, Consumer<String> progress) {
    this.client = client;
    this.clock = clock;
    this.progress = progress;
  }

  /**
   * Creates accounts until the state under {@code brokerData} holds {@code targetBytes}.
   *
   * @return the accounts created
   */
  long grow(Path brokerData, long targetBytes) throws InterruptedException {
    SplittableRandom random = new SplittableRandom(42);
    Semaphore slots = new Semaphore(IN_FLIGHT);
    LatencyRecorder answers = new LatencyRecorder();
    long start = clock.nanos();
    long sent = 0;
    long stateBytes = stateBytes(brokerData);
    while (stateBytes < targetBytes) {
      long batch = Math.max(BATCH_MIN, Math.min(BATCH_MAX, (targetBytes - stateBytes) / ID_BYTES));
      for (long i = 0; i < batch; i++) {
        slots.acquire();
        long sentAt = clock.nanos();
        CompletableFuture<?> call = client.createAccountAsync(accountId(sent++, random));
        call.whenComplete(
            (ok, error) -> {
              if (error == null) {
                answers.acknowledged(clock.nanos() - sentAt);
              } else {
                answers.failed(error); // not retried: more accounts follow until the state is grown
              }
              slots.release();
            });
      }
      stateBytes = stateBytes(brokerData);
      progress.accept(
          String.format(
              Locale.ROOT,
              "hot-path: %,d accounts sent (%,d created, failed %s) in %.0f s; broker 0 state %,d of"
                  + " %,d bytes",
              sent,
              answers.acknowledgedCount(),
              answers.errors(),
              (clock.nanos() - start) / 1e9,
              stateBytes,
              targetBytes));
    }
    if (!slots.tryAcquire(IN_FLIGHT, 60, TimeUnit.SECONDS)) {
      throw new IllegalStateException(
          "Expected every account creation to be answered within 60 s, but some were not");
    }
    slots.release(IN_FLIGHT);
    return answers.acknowledgedCount();
  }

  /** The bytes of every partition's RocksDB directory ({@code runtime/}) under a broker's data. */
  static long stateBytes(Path brokerData) {
    return children(brokerData.resolve("partitions")).stream()
        .mapToLong(partition -> sizeOfLiveTree(partition.resolve("runtime")))
        .sum();
  }

  private static List<Path> children(Path directory) {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> children = Files.list(directory)) {
      return children.filter(Files::isDirectory).toList();
    } catch (IOException e) {
      return List.of(); // it vanished while it was listed: read again on the next round
    }
  }

  /**
   * Bytes of the regular files under {@code root}, which a running broker changes meanwhile: files
   * deleted while it is walked are skipped.
   */
  private static long sizeOfLiveTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      return paths
          .mapToLong(
              p -> {
                try {
                  return Files.isRegularFile(p) ? Files.size(p) : 0;
                } catch (NoSuchFileException e) {
                  return 0;
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .sum();
    } catch (IOException | UncheckedIOException e) {
      return 0; // a directory vanished while it was walked: read again on the next round
    }
  }

  private static String accountId(long counter, SplittableRandom random) {
    StringBuilder id = new StringBuilder(ID_BYTES).append("hb-").append(counter).append('-');
    while (id.length() < ID_BYTES) {
      id.append(ID_CHARS.charAt(random.nextInt(ID_CHARS.length())));
    }
    return id.toString();
  }
}
