package io.cairn.db;

import static io.cairn.db.TestFamily.ACCOUNTS;
import static io.cairn.db.TestFamily.CHECKPOINTS;
import static io.cairn.db.TestFamily.TRANSFERS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Close/open, checkpoints, and where the digest comes from after an open. */
final class DbLifecycleTest {

  @TempDir Path root;

  @ParameterizedTest(name = "walEnabled={0}")
  @ValueSource(booleans = {false, true})
  void shouldKeepDataAndDigestAcrossReopen(boolean walEnabled) {
    DbConfig config = DbConfig.builder().walEnabled(walEnabled).build();
    Path directory = root.resolve("db");
    StateDigest digest;
    Map<Long, String> data;
    try (CairnDb db = TestFamily.open(directory, config)) {
      writeSample(db);
      digest = db.stateDigest();
      data = contents(db);
    }

    try (CairnDb db = TestFamily.open(directory, config)) {
      assertThat(contents(db)).isEqualTo(data);
      assertThat(db.stateDigest()).isEqualTo(digest).isEqualTo(db.recomputeDigest());
      assertThat(db.stateDigest().total().isZero()).isFalse();
    }
  }

  @Test
  void shouldOpenACheckpointWithEqualDataAndDigest() {
    Path checkpoint = root.resolve("checkpoint");
    try (CairnDb db = TestFamily.open(root.resolve("db"))) {
      writeSample(db);
      StateDigest digest = db.stateDigest();
      Map<Long, String> data = contents(db);

      try (Transaction pending = db.beginTransaction()) {
        accounts(db).put(99L, "not committed");
        db.createCheckpoint(checkpoint);
        pending.commit();
      }
      accounts(db).put(100L, "after the checkpoint");

      try (CairnDb copy = TestFamily.open(checkpoint)) {
        assertThat(contents(copy)).isEqualTo(data);
        assertThat(copy.stateDigest()).isEqualTo(digest).isEqualTo(copy.recomputeDigest());
      }
      assertThat(db.stateDigest()).isNotEqualTo(digest).isEqualTo(db.recomputeDigest());
    }
  }

  @Test
  void shouldHardLinkTableFilesIntoTheCheckpoint() throws IOException {
    Path directory = root.resolve("db");
    Path checkpoint = root.resolve("checkpoint");
    try (CairnDb db = TestFamily.open(directory)) {
      writeSample(db);
      db.createCheckpoint(checkpoint);
    }

    try (Stream<Path> files = Files.list(checkpoint)) {
      List<Path> tables = files.filter(f -> f.toString().endsWith(".sst")).toList();
      assertThat(tables).isNotEmpty();
      for (Path table : tables) {
        assertThat(Files.getAttribute(table, "unix:nlink")).isEqualTo(2);
      }
    }
  }

  @Test
  void shouldRefuseACheckpointIntoAnExistingDirectory() throws IOException {
    Path existing = Files.createDirectory(root.resolve("existing"));
    try (CairnDb db = TestFamily.open(root.resolve("db"))) {
      assertThatThrownBy(() -> db.createCheckpoint(existing))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not to exist");
    }
  }

  @Test
  void shouldRecomputeTheDigestAfterWritesWithMaintenanceOff() {
    Path directory = root.resolve("db");
    StateDigest stale;
    try (CairnDb db = TestFamily.open(directory)) {
      writeSample(db);
      stale = db.stateDigest();
    }
    try (CairnDb db =
        TestFamily.open(directory, DbConfig.builder().digestMaintained(false).build())) {
      assertThatThrownBy(db::stateDigest)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("recomputeDigest()");
      accounts(db).put(1L, "changed while the digest was off");
    }

    try (CairnDb db = TestFamily.open(directory)) {
      assertThat(db.stateDigest()).isNotEqualTo(stale).isEqualTo(db.recomputeDigest());
    }
  }

  @Test
  void shouldRecomputeTheDigestWhenAFamilyJoinsIt() {
    Path directory = root.resolve("db");
    List<ColumnFamilyDefinition> before =
        List.of(ColumnFamilyDefinition.digested("a"), ColumnFamilyDefinition.excluded("b"));
    List<ColumnFamilyDefinition> after =
        List.of(ColumnFamilyDefinition.digested("a"), ColumnFamilyDefinition.digested("b"));
    try (CairnDb db =
        CairnDb.open(directory, DbConfig.defaults(), before, new SimpleMeterRegistry())) {
      db.columnFamily(before.get(1), DbCodecs.LONG, DbCodecs.LONG).put(1L, 1L);
      assertThat(db.stateDigest().families()).containsOnlyKeys("a");
    }

    try (CairnDb db =
        CairnDb.open(directory, DbConfig.defaults(), after, new SimpleMeterRegistry())) {
      assertThat(db.stateDigest().families()).containsOnlyKeys("a", "b");
      assertThat(db.stateDigest().family("b").isZero()).isFalse();
      assertThat(db.stateDigest()).isEqualTo(db.recomputeDigest());
    }
  }

  @Test
  void shouldRefuseToOpenWithoutEveryFamilyOnDisk() {
    Path directory = root.resolve("db");
    TestFamily.open(directory).close();

    assertThatThrownBy(
            () ->
                CairnDb.open(
                    directory,
                    DbConfig.defaults(),
                    List.of(TestFamily.ACCOUNTS),
                    new SimpleMeterRegistry()))
        .isInstanceOf(DbException.class)
        .hasMessageContaining("[CHECKPOINTS, CREDITS, TRANSFERS] are not");
    // The failed open released the lock: a correct open still works.
    TestFamily.open(directory).close();
  }

  @Test
  void shouldListTheStoredFamiliesWithoutOpening() {
    Path directory = root.resolve("db");
    assertThat(CairnDb.storedFamilyNames(directory)).isEmpty(); // no database there
    try (CairnDb db = TestFamily.open(directory)) {
      writeSample(db);
      db.createCheckpoint(root.resolve("checkpoint"));
      // the open database's lock does not stand in the way
      assertThat(CairnDb.storedFamilyNames(directory))
          .containsExactlyInAnyOrder("ACCOUNTS", "TRANSFERS", "CREDITS", "CHECKPOINTS");
    }
    // neither RocksDB's default family nor the internal digest family: what open must be given
    assertThat(CairnDb.storedFamilyNames(root.resolve("checkpoint")))
        .containsExactlyInAnyOrder("ACCOUNTS", "TRANSFERS", "CREDITS", "CHECKPOINTS");
    List<ColumnFamilyDefinition> listed =
        CairnDb.storedFamilyNames(directory).stream()
            .map(ColumnFamilyDefinition::excluded)
            .toList();
    try (CairnDb db =
        CairnDb.open(
            directory,
            DbConfig.builder().digestMaintained(false).build(),
            listed,
            new SimpleMeterRegistry())) {
      assertThat(db.families()).hasSize(4);
    }
  }

  @Test
  void shouldRefuseDuplicateFamilyNames() {
    assertThatThrownBy(
            () ->
                CairnDb.open(
                    root.resolve("db"),
                    DbConfig.defaults(),
                    List.of(
                        ColumnFamilyDefinition.digested("a"), ColumnFamilyDefinition.excluded("a")),
                    new SimpleMeterRegistry()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a' is given twice");
  }

  @Test
  void shouldPointAtTheFamilyThatDiffers() {
    try (CairnDb left = TestFamily.open(root.resolve("left"));
        CairnDb right = TestFamily.open(root.resolve("right"))) {
      writeSample(left);
      writeSample(right);
      assertThat(left.stateDigest()).isEqualTo(right.stateDigest());

      transfers(right).put(7L, "a different amount");

      assertThat(left.stateDigest().differingFamilies(right.stateDigest()))
          .containsExactly("TRANSFERS");
      assertThat(left.stateDigest().total()).isNotEqualTo(right.stateDigest().total());
    }
  }

  @Test
  void shouldReleaseTheDirectoryOnClose() {
    Path directory = root.resolve("db");
    for (int i = 0; i < 5; i++) {
      try (CairnDb db = TestFamily.open(directory)) {
        accounts(db).put((long) i, "round " + i);
      }
    }

    try (CairnDb db = TestFamily.open(directory)) {
      assertThat(contents(db)).hasSize(5);
    }
  }

  private static void writeSample(CairnDb db) {
    db.runInTransaction(
        () -> {
          for (long i = 0; i < 20; i++) {
            accounts(db).put(i, "account " + i);
            transfers(db).put(i, "transfer " + i);
          }
          db.columnFamily(CHECKPOINTS, DbCodecs.LONG, DbCodecs.STRING).put(1L, "checkpoint");
        });
  }

  private static ColumnFamily<Long, String> accounts(CairnDb db) {
    return db.columnFamily(ACCOUNTS, DbCodecs.LONG, DbCodecs.STRING);
  }

  private static ColumnFamily<Long, String> transfers(CairnDb db) {
    return db.columnFamily(TRANSFERS, DbCodecs.LONG, DbCodecs.STRING);
  }

  private static Map<Long, String> contents(CairnDb db) {
    Map<Long, String> contents = new LinkedHashMap<>();
    accounts(db).forEach(contents::put);
    transfers(db).forEach((key, value) -> contents.put(-key - 1, value));
    return contents;
  }
}
