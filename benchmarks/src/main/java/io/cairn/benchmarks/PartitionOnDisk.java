package io.cairn.benchmarks;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamily;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbCodecs;
import io.cairn.engine.LedgerColumnFamily;
import io.cairn.journal.SegmentedJournal;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordBatch;
import io.cairn.protocol.RecordBatchCodec;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.scheduler.Clock;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotMetadata;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.snapshot.TransientSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The partition that {@link BackupBenchmark} backs up, written straight to disk without a broker:
 * ledger accounts plus incompressible history values in RocksDB, persisted snapshots of that state,
 * a journal of entries of encoded {@code TRANSFER CREATE} commands, and figure 3's change of 1% of
 * it. The random bytes and choices come from one fixed seed; the log positions are counted here.
 */
final class PartitionOnDisk {

  /** A digested family the engine does not read: the bulk of the state. */
  static final ColumnFamilyDefinition HISTORY = ColumnFamilyDefinition.digested("BENCH_HISTORY");

  private static final int HISTORY_VALUE_BYTES = 1024;
  private static final int COMMANDS_PER_ENTRY = 40;

  private final Clock clock;
  private final SplittableRandom random = new SplittableRandom(7);
  private long nextPosition = 1;

  PartitionOnDisk(Clock clock) {
    this.clock = clock;
  }

  /** The position of the last command appended so far (0: none). */
  long lastPosition() {
    return nextPosition - 1;
  }

  void loadState(CairnDb db, int accounts, long historyEntries) {
    ColumnFamily<String, Long> balances =
        db.columnFamily(LedgerColumnFamily.LEDGER_ACCOUNTS, DbCodecs.STRING, DbCodecs.LONG);
    ColumnFamily<Long, byte[]> history = db.columnFamily(HISTORY, DbCodecs.LONG, DbCodecs.BYTES);
    for (int from = 0; from < accounts; from += 10_000) {
      int start = from;
      db.runInTransaction(
          () -> {
            for (int i = start; i < Math.min(accounts, start + 10_000); i++) {
              balances.put(account(i), 1_000_000L);
            }
          });
    }
    for (long from = 0; from < historyEntries; from += 2_000) {
      long start = from;
      db.runInTransaction(
          () -> {
            for (long key = start; key < Math.min(historyEntries, start + 2_000); key++) {
              history.put(key, randomBytes(HISTORY_VALUE_BYTES));
            }
          });
    }
  }

  void change(
      CairnDb db, int accounts, int changedAccounts, long historyEntries, long changedHistory) {
    ColumnFamily<String, Long> balances =
        db.columnFamily(LedgerColumnFamily.LEDGER_ACCOUNTS, DbCodecs.STRING, DbCodecs.LONG);
    ColumnFamily<Long, byte[]> history = db.columnFamily(HISTORY, DbCodecs.LONG, DbCodecs.BYTES);
    db.runInTransaction(
        () -> {
          for (int i = 0; i < changedAccounts; i++) {
            balances.put(account(random.nextInt(accounts)), 999_000L);
          }
          for (long i = 0; i < changedHistory; i++) {
            history.put(random.nextLong(historyEntries), randomBytes(HISTORY_VALUE_BYTES));
          }
        });
  }

  /** A persisted snapshot of {@code db} at raft {@code index}, positions up to {@code position}. */
  PersistedSnapshot snapshot(SnapshotStore snapshots, CairnDb db, long index, long position) {
    TransientSnapshot snapshot =
        snapshots.newTransientSnapshot(
            new SnapshotMetadata(
                index,
                1,
                position,
                0,
                position,
                "0.1.0",
                clock.millis(),
                db.stateDigest().toHex()));
    snapshot.writeState(db::createCheckpoint);
    return snapshot.persist();
  }

  /** Appends about {@code bytes} of entries of encoded transfer commands; flushes. */
  void appendLog(SegmentedJournal journal, long bytes, int accounts) {
    ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(8 * 1024);
    long written = 0;
    int sinceFlush = 0;
    while (written < bytes) {
      List<Record> records = new ArrayList<>(COMMANDS_PER_ENTRY);
      for (int i = 0; i < COMMANDS_PER_ENTRY; i++) {
        records.add(
            new Record(
                RecordMetadata.builder()
                    .command(TransferIntent.CREATE)
                    .position(nextPosition + i)
                    .timestamp(clock.millis())
                    .build(),
                new TransferValue(
                    account(random.nextInt(accounts)),
                    account(random.nextInt(accounts)),
                    1 + random.nextInt(1_000),
                    ValueDescriptor.NO_PARTITION_ID,
                    ValueDescriptor.NO_PARTITION_ID)));
      }
      int length = RecordBatchCodec.encode(new RecordBatch(records), buffer, 0);
      byte[] entry = new byte[length];
      buffer.getBytes(0, entry);
      journal.append(nextPosition, new UnsafeBuffer(entry));
      nextPosition += COMMANDS_PER_ENTRY;
      written += length;
      if (++sinceFlush == 64) {
        journal.flush();
        sinceFlush = 0;
      }
    }
    journal.flush();
  }

  private byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i += 8) {
      long value = random.nextLong();
      for (int b = 0; b < 8 && i + b < length; b++) {
        bytes[i + b] = (byte) (value >>> (8 * b));
      }
    }
    return bytes;
  }

  /** The name of account {@code i}. */
  static String account(int i) {
    return "account-" + i;
  }
}
