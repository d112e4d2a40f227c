package io.cairn.backuptestkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.content.CompressionPolicy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Contract: incremental reuse of equal files from the partition's previous backup. */
public abstract class ReuseContractTests extends ContentContractTests {

  /** Two consecutive backups of one partition over the same source files. */
  private record Pair(Backup first, Backup second, int equalFiles, long equalBytes) {}

  /**
   * The second backup shares two snapshot files and two sealed segments with the first; one SST
   * file is new, one file has the same name and size but other bytes, and the active segment grew.
   */
  private Pair consecutiveBackups(int partition) throws IOException {
    Path dir = newDirectory("partition-" + partition);
    Path current = write(dir, "CURRENT", "MANIFEST-000009\n".getBytes());
    Path sst = randomFile(dir, "000010.sst", 250_000, 10);
    Path options1 = randomFile(dir, "OPTIONS-a", 4_000, 11);
    Path options2 = randomFile(dir, "OPTIONS-b", 4_000, 12);
    Path newSst = randomFile(dir, "000011.sst", 90_000, 13);
    Path seg1 = randomFile(dir, "1.log", 300_000, 14);
    Path seg2 = randomFile(dir, "2.log", 200_000, 15);
    Path active = randomFile(dir, "3.log", 150_000, 16);

    Backup first =
        backup(
            id(0, partition, 1),
            NamedFileSet.of(
                file("CURRENT", current),
                file("000010.sst", sst),
                new BackupFile("OPTIONS", options1, 4_000)),
            NamedFileSet.of(
                file("1.log", seg1),
                file("2.log", seg2),
                new BackupFile("3.log", active, 100_000)));
    Backup second =
        backup(
            id(1, partition, 2),
            NamedFileSet.of(
                file("CURRENT", current),
                file("000010.sst", sst),
                file("000011.sst", newSst),
                new BackupFile("OPTIONS", options2, 4_000)),
            NamedFileSet.of(
                file("1.log", seg1),
                file("2.log", seg2),
                new BackupFile("3.log", active, 150_000)));
    long equalBytes = 16 + 250_000 + 300_000 + 200_000;
    return new Pair(first, second, 4, equalBytes);
  }

  @Test
  void shouldReuseEqualFilesOfThePreviousBackup() throws Exception {
    Pair pair = consecutiveBackups(5);
    await(store.save(pair.first()));

    BackupSaveResult result = await(store.save(pair.second(), Optional.of(pair.first().id())));

    assertThat(result.reusedFileCount()).isEqualTo(pair.equalFiles());
    assertThat(result.reusedBytes()).isEqualTo(pair.equalBytes());
    assertThat(result.copiedFileCount())
        .isEqualTo(pair.second().descriptor().fileCount() - pair.equalFiles());
    assertThat(result.copiedBytes())
        .isEqualTo(pair.second().descriptor().sizeBytes() - pair.equalBytes());
    Path target = newDirectory("restore");
    assertRestoredIdentical(
        pair.second(),
        await(store.restore(pair.second().id(), target, RestoreProgressListener.NOOP)),
        target);
  }

  @Test
  void shouldKeepEachBackupWholeWhenTheOtherIsDeleted() throws Exception {
    Pair pair = consecutiveBackups(6);
    await(store.save(pair.first()));
    await(store.save(pair.second(), Optional.of(pair.first().id())));

    await(store.delete(pair.first().id()));

    assertThat(await(store.verify(pair.second().id())).problems()).isEmpty();
    Path target = newDirectory("restore");
    assertRestoredIdentical(
        pair.second(),
        await(store.restore(pair.second().id(), target, RestoreProgressListener.NOOP)),
        target);
  }

  @Test
  void shouldKeepThePreviousBackupWholeWhenTheNewerIsDeleted() throws Exception {
    Pair pair = consecutiveBackups(7);
    await(store.save(pair.first()));
    await(store.save(pair.second(), Optional.of(pair.first().id())));

    await(store.delete(pair.second().id()));

    assertThat(await(store.verify(pair.first().id())).problems()).isEmpty();
    Path target = newDirectory("restore");
    assertRestoredIdentical(
        pair.first(),
        await(store.restore(pair.first().id(), target, RestoreProgressListener.NOOP)),
        target);
  }

  @Test
  void shouldReuseFilesStoredCompressedByAnotherSetting() throws Exception {
    Pair pair = consecutiveBackups(8);
    await(openStore(CompressionPolicy.zstd(1000)).save(pair.first()));

    BackupSaveResult result = await(store.save(pair.second(), Optional.of(pair.first().id())));

    assertThat(result.reusedFileCount()).isEqualTo(pair.equalFiles());
    assertThat(await(store.verify(pair.second().id())).isClean()).isTrue();
    Path target = newDirectory("restore");
    assertRestoredIdentical(
        pair.second(),
        await(store.restore(pair.second().id(), target, RestoreProgressListener.NOOP)),
        target);
  }

  @Test
  void shouldCopyEverythingWhenThePreviousBackupIsNotCompleted() throws Exception {
    Pair pair = consecutiveBackups(3);
    BackupIdentifier failed = pair.first().id();
    await(store.markFailed(failed, "leader changed"));

    BackupSaveResult result = await(store.save(pair.second(), Optional.of(failed)));
    BackupSaveResult none = await(store.save(tinyBackup(id(0, 3, 9)), Optional.of(id(0, 3, 8))));

    assertThat(result.reusedFileCount()).isZero();
    assertThat(result.copiedFileCount()).isEqualTo(pair.second().descriptor().fileCount());
    assertThat(none.reusedFileCount()).isZero();
    Path target = newDirectory("restore");
    assertRestoredIdentical(
        pair.second(),
        await(store.restore(pair.second().id(), target, RestoreProgressListener.NOOP)),
        target);
  }
}
