package io.cairn.backup.archive;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The meters of one partition's {@link LogArchiver}, tagged {@code partition}.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>what</th></tr>
 *   <tr><td>{@value #CHUNKS}</td><td>counter</td><td>{@code result} = archived, lost_race (another
 *       leader continued the chain first), failed</td><td>chunks this member tried to archive</td></tr>
 *   <tr><td>{@value #BYTES}</td><td>counter (bytes)</td><td></td><td>log bytes archived (before
 *       compression)</td></tr>
 *   <tr><td>{@value #ARCHIVED_INDEX}</td><td>gauge</td><td></td><td>the last journal index this
 *       member knows archived (NaN before it knows)</td></tr>
 *   <tr><td>{@value #UNARCHIVED_BYTES}</td><td>gauge (bytes)</td><td></td><td>journal bytes
 *       after the archived index: what compaction is held for</td></tr>
 *   <tr><td>{@value #UNARCHIVED_LIMIT}</td><td>gauge</td><td>bytes</td><td>{@code
 *       backup.archive.maxUnarchivedBytes}: the unarchived bytes compaction waits for at
 *       most</td></tr>
 *   <tr><td>{@value #HOLD_RELEASED}</td><td>gauge</td><td></td><td>1 while the unarchived bytes
 *       exceed {@code backup.archive.maxUnarchivedBytes} and compaction no longer waits for the
 *       archive (the archive will have a gap), else 0</td></tr>
 *   <tr><td>{@value #GAPS}</td><td>counter</td><td></td><td>chains started after records the
 *       archive never got</td></tr>
 *   <tr><td>{@value #FROM_MEMBERS}</td><td>counter</td><td></td><td>records a new leader archived
 *       from another member's log, its own starting past the archive's tail</td></tr>
 *   <tr><td>{@value #POINT_TIMESTAMP}</td><td>gauge (seconds since the epoch)</td><td></td><td>when
 *       the newest restore point this member archived was taken (NaN before it archived one): the
 *       recovery point objective of a point-in-time restore is {@code time()} minus this, on the
 *       partition's leader</td></tr>
 * </table>
 */
public final class ArchiveMetrics implements AutoCloseable {

  public static final String CHUNKS = "cairn.backup.archive.chunks";
  public static final String BYTES = "cairn.backup.archive.bytes";
  public static final String ARCHIVED_INDEX = "cairn.backup.archive.archived.index";
  public static final String UNARCHIVED_BYTES = "cairn.backup.archive.unarchived.bytes";
  public static final String UNARCHIVED_LIMIT = "cairn.backup.archive.unarchived.limit";
  public static final String HOLD_RELEASED = "cairn.backup.archive.hold.released";
  public static final String GAPS = "cairn.backup.archive.gaps";
  public static final String FROM_MEMBERS = "cairn.backup.archive.records.from.members";
  public static final String POINT_TIMESTAMP = "cairn.backup.archive.point.timestamp";

  private final MeterRegistry registry;
  private final List<Meter> meters = new ArrayList<>();
  private final Counter archived;
  private final Counter lostRace;
  private final Counter failed;
  private final Counter bytes;
  private final Counter gaps;
  private final Counter fromMembers;
  private final AtomicLong archivedIndex = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong unarchivedBytes = new AtomicLong();
  private final AtomicLong unarchivedLimit = new AtomicLong();
  private final AtomicLong holdReleased = new AtomicLong();
  private final AtomicLong pointMillis = new AtomicLong(Long.MIN_VALUE);

  public ArchiveMetrics(MeterRegistry registry, int partitionId) {
    this.registry = registry;
    String partition = Integer.toString(partitionId);
    archived = chunks(partition, "archived");
    lostRace = chunks(partition, "lost_race");
    failed = chunks(partition, "failed");
    bytes =
        register(
            Counter.builder(BYTES)
                .description("Log bytes archived, before compression")
                .baseUnit("bytes")
                .tag("partition", partition)
                .register(registry));
    gaps =
        register(
            Counter.builder(GAPS)
                .description("Archive chains started after records the archive never got")
                .tag("partition", partition)
                .register(registry));
    fromMembers =
        register(
            Counter.builder(FROM_MEMBERS)
                .description(
                    "Records this member archived from another member's log, as its own no longer"
                        + " held them (it installed a snapshot past the archive's tail)")
                .tag("partition", partition)
                .register(registry));
    register(
        Gauge.builder(
                ARCHIVED_INDEX,
                archivedIndex,
                v -> v.get() == Long.MIN_VALUE ? Double.NaN : v.get())
            .description("The last journal index this member knows archived")
            .tag("partition", partition)
            .register(registry));
    register(
        Gauge.builder(UNARCHIVED_BYTES, unarchivedBytes, AtomicLong::get)
            .description("Journal bytes after the archived index")
            .baseUnit("bytes")
            .tag("partition", partition)
            .register(registry));
    register(
        Gauge.builder(UNARCHIVED_LIMIT, unarchivedLimit, AtomicLong::get)
            .description(
                "backup.archive.maxUnarchivedBytes: the most journal bytes compaction waits for the"
                    + " archive")
            .baseUnit("bytes")
            .tag("partition", partition)
            .register(registry));
    register(
        Gauge.builder(HOLD_RELEASED, holdReleased, AtomicLong::get)
            .description("1 while compaction no longer waits for the archive (over its limit)")
            .tag("partition", partition)
            .register(registry));
    register(
        Gauge.builder(
                POINT_TIMESTAMP,
                pointMillis,
                v -> v.get() == Long.MIN_VALUE ? Double.NaN : v.get() / 1000.0)
            .description("When the newest restore point this member archived was taken")
            .baseUnit("seconds")
            .tag("partition", partition)
            .register(registry));
  }

  private Counter chunks(String partition, String result) {
    return register(
        Counter.builder(CHUNKS)
            .description("Chunks of the log this member tried to archive, by result")
            .tag("partition", partition)
            .tag("result", result)
            .register(registry));
  }

  private <M extends Meter> M register(M meter) {
    meters.add(meter);
    return meter;
  }

  void archived(long toIndex, long sizeBytes) {
    archived.increment();
    bytes.increment(sizeBytes);
    archivedIndex.set(toIndex);
  }

  /** A restore point taken at {@code timestampMillis} was archived. */
  void pointArchived(long timestampMillis) {
    pointMillis.accumulateAndGet(timestampMillis, Math::max);
  }

  void lostRace() {
    lostRace.increment();
  }

  void failed() {
    failed.increment();
  }

  void gap() {
    gaps.increment();
  }

  void fromMembers(int records) {
    fromMembers.increment(records);
  }

  void archivedIndex(long index) {
    archivedIndex.set(index);
  }

  void unarchivedBytes(long value) {
    unarchivedBytes.set(value);
  }

  void unarchivedLimit(long value) {
    unarchivedLimit.set(value);
  }

  void holdReleased(boolean released) {
    holdReleased.set(released ? 1 : 0);
  }

  @Override
  public void close() {
    meters.forEach(registry::remove);
  }
}
