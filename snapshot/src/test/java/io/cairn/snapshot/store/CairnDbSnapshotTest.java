package io.cairn.snapshot.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamily;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbCodecs;
import io.cairn.db.DbConfig;
import io.cairn.db.StateDigest;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotMetadata;
import io.cairn.snapshot.TransientSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real RocksDB checkpoint through the store: the recovered copy has the same data and digest. */
final class CairnDbSnapshotTest {

  private static final List<ColumnFamilyDefinition> FAMILIES =
      List.of(ColumnFamilyDefinition.digested("accounts"), ColumnFamilyDefinition.excluded("meta"));

  @TempDir Path root;

  @Test
  void shouldRecoverDatabaseWithTheSameDigestFromSnapshot() {
    StateDigest digest;
    PersistedSnapshot snapshot;
    try (CairnDb db = open(root.resolve("runtime"));
        FileSnapshotStore store = TestSnapshots.open(root.resolve("partition-1"))) {
      ColumnFamily<Long, String> accounts =
          db.columnFamily(FAMILIES.get(0), DbCodecs.LONG, DbCodecs.STRING);
      for (long i = 0; i < 2_000; i++) {
        long key = i;
        db.runInTransaction(() -> accounts.put(key, "balance-" + key * 7));
      }
      digest = db.stateDigest();
      SnapshotMetadata metadata =
          new SnapshotMetadata(
              2_000, 1, 2_000, 1_500, 2_001, TestSnapshots.BROKER_VERSION, 5, digest.toHex());
      TransientSnapshot transientSnapshot = store.newTransientSnapshot(metadata);
      transientSnapshot.writeState(db::createCheckpoint);
      snapshot = transientSnapshot.persist();

      db.runInTransaction(() -> accounts.put(5L, "changed after the snapshot"));

      Path copy = root.resolve("recovered");
      assertThat(store.copyForRecovery(copy)).contains(snapshot);
      try (CairnDb recovered = open(copy)) {
        assertThat(recovered.stateDigest()).isEqualTo(digest);
        assertThat(recovered.recomputeDigest()).isEqualTo(digest);
        assertThat(recovered.stateDigest().toHex()).isEqualTo(snapshot.metadata().stateDigestHex());
        ColumnFamily<Long, String> recoveredAccounts =
            recovered.columnFamily(FAMILIES.get(0), DbCodecs.LONG, DbCodecs.STRING);
        assertThat(recoveredAccounts.get(5L)).isEqualTo("balance-35");
        assertThat(recoveredAccounts.get(1_999L)).isEqualTo("balance-13993");
      }
      assertThat(db.stateDigest()).isNotEqualTo(digest);
    }
  }

  private static CairnDb open(Path directory) {
    return CairnDb.open(directory, DbConfig.defaults(), FAMILIES, new SimpleMeterRegistry());
  }
}
