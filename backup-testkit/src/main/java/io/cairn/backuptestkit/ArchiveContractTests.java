package io.cairn.backuptestkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.archive.ArchiveException;
import io.cairn.backupapi.archive.ArchiveKeys;
import io.cairn.backupapi.archive.ArchiveObjects;
import io.cairn.backupapi.archive.ArchivedCheckpoint;
import io.cairn.backupapi.archive.ArchivedRecord;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.backupapi.archive.StoredLink;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Contract: the log archive's objects (write-once creates, reads, ordered listings of a directory,
 * deletes) and a {@link LogArchive} chain over them, on the store under test.
 */
public abstract class ArchiveContractTests extends ListingContractTests {

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void archiveObjectIsWrittenOnceAndReadBack() {
    ArchiveObjects objects = store.archive();
    assertThat(await(objects.read("partition-1/links/a"))).isEmpty();
    assertThat(await(objects.create("partition-1/links/a", bytes("first")))).isTrue();
    assertThat(await(objects.create("partition-1/links/a", bytes("second")))).isFalse();
    assertThat(await(objects.read("partition-1/links/a")))
        .hasValueSatisfying(b -> assertThat(b).isEqualTo(bytes("first")));
    await(objects.delete("partition-1/links/a"));
    await(objects.delete("partition-1/links/a"));
    assertThat(await(objects.read("partition-1/links/a"))).isEmpty();
  }

  @Test
  void ofConcurrentCreatorsOfOneKeyExactlyOneWins() {
    ArchiveObjects objects = store.archive();
    List<CompletableFuture<Boolean>> creates =
        IntStream.range(0, 8)
            .mapToObj(i -> objects.create("partition-2/links/race", bytes("writer " + i)))
            .toList();
    long won = creates.stream().map(BackupStoreTestKitSupport::await).filter(w -> w).count();
    assertThat(won).isEqualTo(1);
    String stored = new String(await(objects.read("partition-2/links/race")).orElseThrow());
    assertThat(stored).startsWith("writer ");
  }

  @Test
  void listingIsInKeyOrderAfterAKeyAndOnlyOfTheDirectory() {
    ArchiveObjects objects = store.archive();
    for (String name : List.of("003", "001", "002", "010")) {
      await(objects.create("partition-3/links/" + name, bytes(name)));
    }
    await(objects.create("partition-3/links/deeper/x", bytes("x")));
    await(objects.create("partition-3/linksx", bytes("y")));
    await(objects.create("partition-4/links/001", bytes("z")));

    assertThat(await(objects.list("partition-3/links/", null, 1000)))
        .containsExactly(
            "partition-3/links/001",
            "partition-3/links/002",
            "partition-3/links/003",
            "partition-3/links/010");
    assertThat(await(objects.list("partition-3/links/", "partition-3/links/002", 1000)))
        .containsExactly("partition-3/links/003", "partition-3/links/010");
    assertThat(await(objects.list("partition-3/links/", null, 2)))
        .containsExactly("partition-3/links/001", "partition-3/links/002");
    assertThat(await(objects.list("partition-9/links/", null, 10))).isEmpty();
  }

  @Test
  void badKeysAreRefusedNamingThem() {
    ArchiveObjects objects = store.archive();
    assertThatThrownBy(() -> await(objects.create("../outside", bytes("x"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'../outside'");
    assertThatThrownBy(() -> await(objects.read("/absolute")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> await(objects.list("partition-1/links", null, 10)))
        .hasMessageContaining("ending in '/'");
    assertThatThrownBy(() -> await(objects.list("partition-1/links/", null, 0)))
        .hasMessageContaining("limit of 1 to 1000");
  }

  // ------------------------------------------------------------------------------ the chain

  private static List<ArchivedRecord> records(long from, int count, Random random) {
    List<ArchivedRecord> records = new ArrayList<>();
    for (long index = from; index < from + count; index++) {
      byte[] data = new byte[1 + random.nextInt(300)];
      random.nextBytes(data);
      records.add(new ArchivedRecord(index, index * 10, random.nextInt(), data));
    }
    return records;
  }

  private static StoredLink appended(LogArchive.Appended appended) {
    assertThat(appended.won()).isTrue();
    return appended.link().orElseThrow();
  }

  @Test
  void chainIsReadBackFromAnyIndexWithItsRecordsAndCheckpoints() {
    LogArchive archive = new LogArchive(store.archive(), 5);
    Random random = new Random(5);
    List<ArchivedRecord> all = records(1, 30, random);
    ArchivedCheckpoint checkpoint = new ArchivedCheckpoint(7, 150, 1_000, "00c0ffee", 15);
    StoredLink first =
        appended(
            await(
                archive.append(Optional.empty(), all.subList(0, 10), List.of(), 1, Instant.EPOCH)));
    StoredLink second =
        appended(
            await(
                archive.append(
                    Optional.of(first),
                    all.subList(10, 20),
                    List.of(checkpoint),
                    1,
                    Instant.EPOCH)));
    StoredLink third =
        appended(
            await(
                archive.append(
                    Optional.of(second), all.subList(20, 30), List.of(), 2, Instant.EPOCH)));

    assertThat(await(archive.tail(Optional.empty()))).contains(third);
    assertThat(await(archive.tail(Optional.of(second)))).contains(third);
    List<StoredLink> chain = await(archive.chain(15, 25));
    assertThat(chain).extracting(l -> l.link().fromIndex()).containsExactly(11L, 21L);
    assertThat(chain.get(0).link().checkpoints()).containsExactly(checkpoint);
    assertThat(chain.get(0).link().fromPosition()).isEqualTo(110);
    assertThat(await(archive.point(7))).contains(checkpoint);
    assertThat(await(archive.point(8))).isEmpty();
    assertThat(await(archive.pointIds(0, 10))).containsExactly(7L);
    assertThat(await(archive.pointIds(7, 10))).isEmpty();
    List<ArchivedRecord> read = await(archive.read(chain.get(1).link()));
    assertThat(read).hasSize(10);
    for (int i = 0; i < 10; i++) {
      assertThat(read.get(i).index()).isEqualTo(all.get(20 + i).index());
      assertThat(read.get(i).checksum()).isEqualTo(all.get(20 + i).checksum());
      assertThat(read.get(i).data()).isEqualTo(all.get(20 + i).data());
    }
  }

  @Test
  void objectsBesideTheArchivesOwnKeysAreSkipped() {
    LogArchive archive = new LogArchive(store.archive(), 8);
    Random random = new Random(8);
    List<ArchivedRecord> all = records(1, 30, random);
    StoredLink first =
        appended(
            await(
                archive.append(
                    Optional.empty(),
                    all.subList(0, 10),
                    List.of(new ArchivedCheckpoint(7, 50, 1_000, "00c0ffee", 5)),
                    1,
                    Instant.EPOCH)));
    StoredLink second =
        appended(
            await(
                archive.append(
                    Optional.of(first),
                    all.subList(10, 20),
                    List.of(new ArchivedCheckpoint(9, 150, 2_000, "00c0ffee", 15)),
                    1,
                    Instant.EPOCH)));
    // what a server lists while it writes an upload to a temporary object beside its key, and a
    // stray file: each sorts right after an archive key
    String uuid = "-5ab2c5ab-4c5f-44ec-a59c-05ca6538c9b6";
    for (String foreign :
        List.of(
            ArchiveKeys.point(8, 7) + uuid,
            ArchiveKeys.point(8, 9) + uuid,
            first.key() + uuid,
            second.key() + uuid,
            ArchiveKeys.linksDirectory(8) + "notes.txt")) {
      await(store.archive().create(foreign, bytes("not the archive's")));
    }

    assertThat(await(archive.pointIds(0, 10))).containsExactly(7L, 9L);
    assertThat(await(archive.pointIds(0, 1))).containsExactly(7L);
    assertThat(await(archive.pointIds(7, 1))).containsExactly(9L);
    assertThat(await(archive.pointIds(9, 1))).isEmpty();
    assertThat(await(archive.linkKeys(null, 1))).containsExactly(first.key());
    assertThat(await(archive.linkKeys(first.key(), 10))).containsExactly(second.key());
    assertThat(await(archive.tail(Optional.empty()))).contains(second);
    assertThat(await(archive.chain(5, 20)))
        .extracting(StoredLink::key)
        .containsExactly(first.key(), second.key());
    assertThatThrownBy(() -> await(archive.chain(5, 25)))
        .isInstanceOf(ArchiveException.class)
        .hasMessageContaining("index 21");
  }

  @Test
  void aSecondWriterContinuingFromTheSameTailLoses() {
    LogArchive archive = new LogArchive(store.archive(), 6);
    Random random = new Random(6);
    List<ArchivedRecord> all = records(1, 20, random);
    StoredLink first =
        appended(
            await(
                archive.append(Optional.empty(), all.subList(0, 5), List.of(), 1, Instant.EPOCH)));
    appended(
        await(archive.append(Optional.of(first), all.subList(5, 15), List.of(), 1, Instant.EPOCH)));

    LogArchive.Appended late =
        await(archive.append(Optional.of(first), all.subList(5, 8), List.of(), 2, Instant.EPOCH));
    assertThat(late.won()).isFalse();
    assertThat(await(archive.chain(1, 15)))
        .extracting(l -> l.link().toIndex())
        .containsExactly(5L, 15L);
  }

  @Test
  void aGapAChangedLinkAndACorruptChunkAreRefusedNamingWhere() {
    LogArchive archive = new LogArchive(store.archive(), 7);
    Random random = new Random(7);
    List<ArchivedRecord> all = records(1, 30, random);
    StoredLink first =
        appended(
            await(
                archive.append(Optional.empty(), all.subList(0, 10), List.of(), 1, Instant.EPOCH)));
    StoredLink second =
        appended(
            await(
                archive.append(
                    Optional.of(first), all.subList(10, 20), List.of(), 1, Instant.EPOCH)));
    StoredLink third =
        appended(
            await(
                archive.append(
                    Optional.of(second), all.subList(20, 30), List.of(), 1, Instant.EPOCH)));

    assertThatThrownBy(() -> await(archive.chain(5, 40)))
        .isInstanceOf(ArchiveException.class)
        .hasMessageContaining("partition 7")
        .hasMessageContaining("index 31")
        .hasMessageContaining("ends before it");

    await(store.archive().delete(second.key()));
    assertThatThrownBy(() -> await(archive.chain(5, 25)))
        .isInstanceOf(ArchiveException.class)
        .hasMessageContaining("partition 7")
        .hasMessageContaining("index 11")
        .hasMessageContaining("next archived index is 21");

    // a chain start where a continuation belongs is a break
    await(store.archive().create(second.key(), archiveBytesOf(archive, all.subList(10, 20))));
    assertThatThrownBy(() -> await(archive.chain(5, 25)))
        .isInstanceOf(ArchiveException.class)
        .hasMessageContaining(second.key())
        .hasMessageContaining("starts a new chain");

    byte[] chunk = await(store.archive().read(third.link().chunkKey())).orElseThrow();
    chunk[chunk.length / 2] ^= 0x10;
    await(store.archive().delete(third.link().chunkKey()));
    await(store.archive().create(third.link().chunkKey(), chunk));
    assertThatThrownBy(() -> await(archive.read(third.link())))
        .isInstanceOf(ArchiveException.class)
        .hasMessageContaining(third.link().chunkKey());
  }

  /** The stored bytes of a link that starts a chain with {@code records}, written elsewhere. */
  private byte[] archiveBytesOf(LogArchive archive, List<ArchivedRecord> records) {
    LogArchive scratch = new LogArchive(store.archive(), 99);
    StoredLink written =
        appended(await(scratch.append(Optional.empty(), records, List.of(), 3, Instant.EPOCH)));
    byte[] stored = await(store.archive().read(written.key())).orElseThrow();
    String text =
        new String(stored, StandardCharsets.UTF_8)
            .replace("\"partitionId\" : 99", "\"partitionId\" : " + archive.partitionId());
    // the changed text no longer has its recorded CRC32C: recompute it as a writer would
    return relink(text);
  }

  private static byte[] relink(String text) {
    int trailer = text.lastIndexOf("\n#crc32c=");
    byte[] json = text.substring(0, trailer).getBytes(StandardCharsets.UTF_8);
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(json);
    return (text.substring(0, trailer)
            + "\n#crc32c="
            + String.format("%08x", crc.getValue())
            + "\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void linkKeysSortByIndex() {
    assertThat(ArchiveKeys.link(1, 9)).isLessThan(ArchiveKeys.link(1, 10));
    assertThat(ArchiveKeys.fromIndexOf(1, ArchiveKeys.link(1, 123))).isEqualTo(123);
    assertThatThrownBy(() -> ArchiveKeys.fromIndexOf(1, "partition-1/links/12x"))
        .isInstanceOf(ArchiveException.class)
        .hasMessageContaining("'partition-1/links/12x'");
  }
}
