package io.cairn.broker.partition;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbConfig;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a partition's live state from scratch: deletes the runtime directory, copies the newest
 * valid snapshot into it ({@link SnapshotStore#copyForRecovery}, every byte checked; falls back to
 * older snapshots, or to an empty state), opens it, and checks that its digest is the one the
 * snapshot recorded. Blocking: runs on the partition's I/O executor.
 *
 * <p>The runtime directory is never trusted across a rebuild: it may hold effects of a leader's
 * batches that were never committed, and RocksDB runs without its write-ahead log.
 */
final class StateRecovery {

  private static final Logger LOG = LoggerFactory.getLogger(StateRecovery.class);

  /** The opened state and the snapshot it came from (empty: an empty state, replay everything). */
  record Recovered(CairnDb db, Optional<PersistedSnapshot> snapshot) {}

  private StateRecovery() {}

  /**
   * @throws PartitionStateCorruptedException if the recovered state's digest differs from the one
   *     in the snapshot's metadata
   */
  static Recovered recover(
      Path runtime,
      SnapshotStore store,
      DbConfig dbConfig,
      List<ColumnFamilyDefinition> families,
      MeterRegistry registry,
      Tags tags,
      String context) {
    deleteRecursively(runtime);
    try {
      Files.createDirectories(runtime.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Expected to create " + runtime.getParent() + ", but it failed (" + context + ")", e);
    }
    // no snapshot at all is normal for a new partition: skip the store's "replaying all" warning
    Optional<PersistedSnapshot> snapshot =
        store.latestSnapshot().isEmpty() ? Optional.empty() : store.copyForRecovery(runtime);
    CairnDb db = CairnDb.open(runtime, dbConfig, families, registry, tags);
    if (snapshot.isPresent() && db.isDigestMaintained()) {
      String expected = snapshot.get().metadata().stateDigestHex();
      String actual = db.stateDigest().toHex();
      if (!expected.equals(actual)) {
        db.close();
        throw new PartitionStateCorruptedException(
            "Expected the state recovered from snapshot "
                + snapshot.get().id()
                + " to have digest "
                + expected
                + ", but it has "
                + actual
                + " ("
                + context
                + "). Rebuild the partition from a replica or restore it from a backup.");
      }
    }
    LOG.debug(
        "Recovered state of {} from {}",
        context,
        snapshot.map(s -> "snapshot " + s.id()).orElse("nothing (empty state)"));
    return new Recovered(db, snapshot);
  }

  static void deleteRecursively(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Expected to delete " + path + ", but it failed", e);
    }
  }
}
