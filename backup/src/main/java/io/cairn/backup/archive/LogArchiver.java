package io.cairn.backup.archive;

import io.cairn.backupapi.archive.ArchiveChunk;
import io.cairn.backupapi.archive.ArchivedCheckpoint;
import io.cairn.backupapi.archive.ArchivedRecord;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.backupapi.archive.StoredLink;
import io.cairn.journal.Journal;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.journal.JournalSegmentFile;
import io.cairn.logstreams.raft.RaftJournalRecords;
import io.cairn.pacing.Backoff;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;
import io.cairn.scheduler.Actor;
import io.cairn.scheduler.Futures;
import io.cairn.scheduler.LoggingContext;
import io.cairn.snapshot.CompactionHold;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies one partition's committed log into the store's {@link LogArchive} as it is committed
 * (DESIGN.md §9, "Log archive"); an {@link Actor} on every member of the partition for the life of
 * the partition.
 *
 * <p><b>Leading</b>, it reads the journal after the chain's tail, up to the last record whose
 * position is committed, and appends it as chunks of at most {@code maxChunkBytes}: at once when a
 * full chunk is ready, else once per tick ({@code interval}), so a busy log makes one object per
 * interval rather than one per commit. A new leader first reads the tail from the store and
 * continues the chain from there, so a leader change leaves no incomplete chain; when another
 * leader wins a race for the next link, it reads the tail again. Records its own log no longer
 * holds (it installed a snapshot past the tail before it was elected) it asks the partition's other
 * members for ({@link ArchivePeers}): they hold compaction for the archive too. Only when no member
 * holds them (compacted everywhere while the archive could not keep up) does a new chain start
 * after a gap, counted and logged; while a member that may hold them cannot be asked, the leader
 * tries again, {@value #PEER_ATTEMPTS} times or until the archive is over its limit.
 *
 * <p>It also answers the other members' requests for records ({@link #recordsForPeer}).
 *
 * <p><b>Following</b>, it reads the tail every {@code followerPollInterval}.
 *
 * <p><b>Compaction</b> is held at the first record not known archived, on every member, so a new
 * leader still has what it must archive — but never for more than {@code maxUnarchivedBytes} of
 * journal: beyond that the hold is released (compaction goes on, the archive will have a gap) and
 * {@link #problem()} says so until the archive is back within the limit.
 */
public final class LogArchiver extends Actor {

  private static final Logger LOG = LoggerFactory.getLogger(LogArchiver.class);

  /** The waits after a failed store call: 1 s doubling to a minute. */
  public static final Backoff BACKOFF = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1));

  /** Rounds of asking the other members for records before a gap is accepted. */
  static final int PEER_ATTEMPTS = 5;

  /** The most record bytes asked of another member at once (a transport frame holds them). */
  static final int PEER_ANSWER_BYTES = 1024 * 1024;

  private final int nodeId;
  private final int partitionId;
  private final LogArchive archive;
  private final Journal journal;
  private final LongSupplier commitPosition;
  private final CompactionHold hold;
  private final ArchivePeers peers;
  private final ArchiveConfig config;
  private final ArchiveMetrics metrics;

  // actor thread
  private JournalReader reader;
  private boolean leading;
  private boolean busy;
  private boolean tailKnown;
  private Optional<StoredLink> tail = Optional.empty();
  private long lastPollNanos = Long.MIN_VALUE;
  private int failures;
  private int peerFailures;
  private long retryAtNanos = Long.MIN_VALUE;
  private String diverged = "";
  private long lastAppendNanos = Long.MIN_VALUE;
  private volatile String problem = "";

  /**
   * @param commitPosition the log stream's commit position (records at or below it are committed)
   * @param hold the compaction hold this archiver moves; closed with it
   * @param peers the partition's other members, asked for records compacted here
   */
  public LogArchiver(
      int nodeId,
      int partitionId,
      LogArchive archive,
      Journal journal,
      LongSupplier commitPosition,
      CompactionHold hold,
      ArchivePeers peers,
      ArchiveConfig config,
      ArchiveMetrics metrics) {
    super("log-archiver-" + partitionId, LoggingContext.partition(nodeId, partitionId));
    this.nodeId = nodeId;
    this.partitionId = partitionId;
    this.archive = Objects.requireNonNull(archive, "archive");
    this.journal = Objects.requireNonNull(journal, "journal");
    this.commitPosition = Objects.requireNonNull(commitPosition, "commitPosition");
    this.hold = Objects.requireNonNull(hold, "hold");
    this.peers = Objects.requireNonNull(peers, "peers");
    this.config = Objects.requireNonNull(config, "config");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    metrics.unarchivedLimit(config.maxUnarchivedBytes());
  }

  @Override
  protected void onStart() {
    reader = journal.openReader();
    scheduleAtFixedRate(Duration.ZERO, config.interval(), this::tick);
  }

  @Override
  protected void onClose() {
    if (reader != null) {
      reader.close();
    }
    hold.close();
    metrics.close();
  }

  /** Any thread: this member leads the partition from now on (or no longer does). */
  public void leading(boolean leads) {
    submit(
        () -> {
          if (leads && !leading) {
            tailKnown = false; // another leader may have continued the chain meanwhile
            peerFailures = 0;
          }
          leading = leads;
          tick();
        });
  }

  /** Why the archive is not keeping up with the log, or "" when it is; any thread. */
  public String problem() {
    return problem;
  }

  /**
   * Another member's request: this member's committed records from {@code from} on, at most up to
   * {@code to} and about {@code maxBytes} (at least one record); empty when its log does not hold
   * {@code from} committed. Records at or below the commit are the same on every member.
   */
  public java.util.concurrent.CompletableFuture<List<ArchivedRecord>> recordsForPeer(
      long from, long to, int maxBytes) {
    return call(() -> committedRecords(from, to, maxBytes));
  }

  /** Actor thread: the last index known archived, for tests and status; -1 when none. */
  public java.util.concurrent.CompletableFuture<Long> archivedIndex() {
    return call(() -> tail.map(t -> t.link().toIndex()).orElse(-1L));
  }

  private void tick() {
    checkLimit(); // also while the store is retried: the disk limit must not wait for it
    if (busy || clock().nanos() < retryAtNanos) {
      return;
    }
    boolean poll =
        !tailKnown
            || (!leading
                && clock().nanos() - lastPollNanos >= config.followerPollInterval().toNanos());
    if (poll) {
      readTail();
      return;
    }
    if (leading) {
      archiveNext();
    }
  }

  private void readTail() {
    busy = true;
    archive
        .tail(tailKnown ? tail : Optional.empty())
        .whenCompleteAsync(
            (read, error) -> {
              busy = false;
              lastPollNanos = clock().nanos();
              if (error != null) {
                failed("reading the archive's tail", error);
                return;
              }
              succeeded();
              tailKnown = true;
              tail = read;
              moveHold();
              if (leading) {
                archiveNext();
              }
            },
            executor());
  }

  /** The next chunk after the tail, if committed records are there; appended at once. */
  private void archiveNext() {
    if (!continuesTail()) {
      return;
    }
    long next = tail.map(t -> t.link().toIndex() + 1).orElse(journal.getFirstIndex());
    if (tail.isPresent() && next < journal.getFirstIndex()) {
      askPeers(tail.get(), next);
      return;
    }
    List<ArchivedRecord> records = committedRecords(next, Long.MAX_VALUE, config.maxChunkBytes());
    if (records.isEmpty()) {
      return;
    }
    long sizeBytes = records.stream().mapToLong(ArchiveChunk::encodedSize).sum();
    boolean full = sizeBytes + ArchiveChunk.encodedSize(records.get(0)) > config.maxChunkBytes();
    boolean recently =
        lastAppendNanos != Long.MIN_VALUE
            && clock().nanos() - lastAppendNanos < config.interval().toNanos() / 2;
    if (!full && recently) {
      return; // a part chunk waits for the next tick: one object per interval, not per commit
    }
    append(tail, records);
  }

  /**
   * The records from {@code next} on were compacted here: the other members may still hold them.
   * What they answer continues the chain; when none holds them, a new chain starts after a gap.
   */
  private void askPeers(StoredLink previous, long next) {
    busy = true;
    long to = journal.getFirstIndex() - 1;
    peers
        .committedRecords(next, to, Math.min(config.maxChunkBytes(), PEER_ANSWER_BYTES))
        .whenCompleteAsync(
            (records, error) -> {
              busy = false;
              if (!leading || !tailKnown || !tail.equals(Optional.of(previous))) {
                return; // leadership changed meanwhile: the next tick starts from the tail again
              }
              String what =
                  "asking the partition's other members for indexes " + next + " to " + to;
              if (error == null && !records.isEmpty() && records.get(0).index() != next) {
                error =
                    new IllegalStateException(
                        "Expected records from index " + next + ", but got " + records.get(0));
              }
              if (error != null) {
                if (peerFailures < PEER_ATTEMPTS - 1 && problem.isEmpty()) {
                  peerFailures++;
                  failed(what + " (compacted here)", error);
                  return;
                }
                LOG.warn(
                    "Partition {}: {} failed {} times: {}; giving up on them",
                    partitionId,
                    what,
                    peerFailures + 1,
                    Futures.unwrap(error).getMessage());
                records = List.of();
              }
              peerFailures = 0;
              if (records.isEmpty()) {
                startAfterGap(next);
                return;
              }
              LOG.info(
                  "Partition {}: archiving indexes {} to {} as another member holds them (this"
                      + " member's log starts at index {})",
                  partitionId,
                  next,
                  records.get(records.size() - 1).index(),
                  journal.getFirstIndex());
              metrics.fromMembers(records.size());
              append(Optional.of(previous), records);
            },
            executor());
  }

  /** No member holds the records from {@code next} on: a new chain starts where this log does. */
  private void startAfterGap(long next) {
    long first = journal.getFirstIndex();
    metrics.gap();
    LOG.warn(
        "Partition {}: the log archive ends at index {} but the log now starts at index {}, and no"
            + " other member holds the records between: they were compacted before they were"
            + " archived. A new chain starts at index {}; no point-in-time restore can reach across"
            + " the gap (take a backup to have a restore point after it)",
        partitionId,
        next - 1,
        first,
        first);
    List<ArchivedRecord> records = committedRecords(first, Long.MAX_VALUE, config.maxChunkBytes());
    if (!records.isEmpty()) {
      append(Optional.empty(), records);
    }
  }

  /** Appends {@code records} to the chain after {@code previous}, then goes on. */
  private void append(Optional<StoredLink> previous, List<ArchivedRecord> records) {
    long sizeBytes = records.stream().mapToLong(ArchiveChunk::encodedSize).sum();
    busy = true;
    lastAppendNanos = clock().nanos();
    List<ArchivedCheckpoint> checkpoints = checkpointsIn(records);
    archive
        .append(previous, records, checkpoints, nodeId, clock().instant())
        .whenCompleteAsync(
            (appended, error) -> {
              busy = false;
              if (error != null) {
                failed("archiving indexes " + records.get(0).index() + " and on", error);
                return;
              }
              succeeded();
              if (!appended.won()) {
                metrics.lostRace();
                LOG.info(
                    "Partition {}: another member continued the log archive after index {} first;"
                        + " reading its tail again",
                    partitionId,
                    previous.map(t -> t.link().toIndex()).orElse(0L));
                tailKnown = false;
                readTail();
                return;
              }
              tail = appended.link();
              metrics.archived(tail.get().link().toIndex(), sizeBytes);
              checkpoints.stream()
                  .mapToLong(ArchivedCheckpoint::timestamp)
                  .max()
                  .ifPresent(metrics::pointArchived);
              moveHold();
              if (!checkpoints.isEmpty()) {
                LOG.debug(
                    "Partition {}: archived restore points {} up to index {}",
                    partitionId,
                    checkpoints.stream().map(ArchivedCheckpoint::id).toList(),
                    tail.get().link().toIndex());
              }
              if (leading) {
                archiveNext();
              }
            },
            executor());
  }

  /**
   * Whether this member's log holds the archive's last record as archived. A leader holds every
   * committed record, so one whose record there differs has another history: its partition was
   * restored to an earlier point (or the store is another cluster's). It must not continue the
   * chain; it archives nothing, holds no compaction, and says why.
   */
  private boolean continuesTail() {
    if (!diverged.isEmpty()) {
      return false;
    }
    if (tail.isEmpty()) {
      return true;
    }
    long at = tail.get().link().toIndex();
    if (at < journal.getFirstIndex()) {
      return true; // compacted here: the gap is recorded when the next chain starts
    }
    if (at > journal.getLastIndex()) {
      return false; // a leader holds every committed record; this one will, or it diverged
    }
    reader.seek(at);
    JournalRecord record = reader.hasNext() ? reader.next() : null;
    if (record == null || record.index() != at) {
      return false;
    }
    if (record.checksum() == tail.get().link().toChecksum()) {
      return true;
    }
    diverged =
        "this member's log differs from the archived one at index "
            + at
            + " (the partition was restored to an earlier point, or the store holds another"
            + " cluster's archive): nothing more is archived, so that the archived history stays"
            + " as it was. Archive this cluster into another store or base path";
    LOG.error("Partition {}: {}", partitionId, diverged);
    checkLimit();
    return false;
  }

  /**
   * The records from {@code from} on up to the last one whose position is committed, at most up to
   * {@code to} and about {@code maxBytes} (at least one record). A record without position (a new
   * leader's initial entry) is taken only when a committed record follows it: until then it may
   * still be replaced.
   */
  private List<ArchivedRecord> committedRecords(long from, long to, int maxBytes) {
    long committed = commitPosition.getAsLong();
    List<ArchivedRecord> records = new ArrayList<>();
    int lastCommitted = -1;
    long bytes = 0;
    reader.seek(from);
    while (reader.hasNext()
        && records.size() < LogArchive.MAX_CHUNK_RECORDS
        && from + records.size() <= to) {
      JournalRecord record = reader.next();
      if (record.index() != from + records.size()) {
        break; // the log was reset under us; the next tick looks again
      }
      if (record.asqn() != Journal.ASQN_IGNORE && record.asqn() > committed) {
        break;
      }
      byte[] data = new byte[record.data().capacity()];
      record.data().getBytes(0, data);
      ArchivedRecord archived =
          new ArchivedRecord(record.index(), record.asqn(), record.checksum(), data);
      if (!records.isEmpty() && bytes + ArchiveChunk.encodedSize(archived) > maxBytes) {
        break;
      }
      records.add(archived);
      bytes += ArchiveChunk.encodedSize(archived);
      if (record.asqn() != Journal.ASQN_IGNORE) {
        lastCommitted = records.size() - 1;
      }
    }
    return lastCommitted < 0 ? List.of() : records.subList(0, lastCommitted + 1);
  }

  /** The {@code CHECKPOINT CREATED} events in {@code records}: the restore points they hold. */
  private List<ArchivedCheckpoint> checkpointsIn(List<ArchivedRecord> records) {
    List<ArchivedCheckpoint> checkpoints = new ArrayList<>();
    for (ArchivedRecord archived : records) {
      var batch =
          RaftJournalRecords.batchOf(
              archived.asqn(), new org.agrona.concurrent.UnsafeBuffer(archived.data()));
      if (batch.isEmpty()) {
        continue;
      }
      for (Record record : batch.get().records()) {
        if (record.metadata().recordType() == RecordType.EVENT
            && record.metadata().intent() == CheckpointIntent.CREATED
            && record.value() instanceof CheckpointValue value) {
          checkpoints.add(
              new ArchivedCheckpoint(
                  value.checkpointId(),
                  value.checkpointPosition(),
                  value.timestamp(),
                  HexFormat.of().formatHex(value.stateDigest()),
                  archived.index()));
        }
      }
    }
    return checkpoints;
  }

  /** Holds compaction at the first record not known archived, within the limit. */
  private void moveHold() {
    tail.ifPresent(t -> metrics.archivedIndex(t.link().toIndex()));
    checkLimit();
  }

  private void checkLimit() {
    long needed = tail.map(t -> t.link().toIndex() + 1).orElse(journal.getFirstIndex());
    long unarchived = 0;
    for (JournalSegmentFile segment : journal.segmentFiles()) {
      if (segment.lastIndex() >= needed) {
        unarchived += segment.committedLengthBytes();
      }
    }
    metrics.unarchivedBytes(unarchived);
    if (!diverged.isEmpty()) {
      problem = diverged;
      hold.moveTo(Math.max(1, journal.getLastIndex() + 1));
      metrics.holdReleased(true);
      return;
    }
    boolean over = unarchived > config.maxUnarchivedBytes();
    if (over) {
      if (problem.isEmpty()) {
        problem =
            "the log archive is "
                + unarchived
                + " bytes behind the log, over backup.archive.maxUnarchivedBytes ("
                + config.maxUnarchivedBytes()
                + "): compaction no longer waits for it and the archive will have a gap"
                + (failures > 0 ? " (the store fails: see the log)" : "");
        LOG.error("Partition {}: {}", partitionId, problem);
      }
      hold.moveTo(Math.max(1, journal.getLastIndex() + 1));
    } else {
      if (!problem.isEmpty()) {
        LOG.info("Partition {}: the log archive is back within its limit", partitionId);
        problem = "";
      }
      hold.moveTo(Math.max(1, needed));
    }
    metrics.holdReleased(over);
  }

  private void failed(String what, Throwable error) {
    failures++;
    metrics.failed();
    Duration wait = BACKOFF.ceiling(failures);
    retryAtNanos = clock().nanos() + wait.toNanos();
    LOG.warn(
        "Partition {}: {} failed (attempt {}): {}; trying again in {}",
        partitionId,
        what,
        failures,
        Futures.unwrap(error).getMessage(),
        wait);
  }

  private void succeeded() {
    failures = 0;
    retryAtNanos = Long.MIN_VALUE;
  }
}
