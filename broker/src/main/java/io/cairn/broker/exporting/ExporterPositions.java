package io.cairn.broker.exporting;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamily;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbCodecs;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The acknowledged position of every exporter of a partition, in the partition's state: exporter id
 * → position. The family is left out of the state digest: positions are not a function of the log
 * (a leader writes them as exporters acknowledge, followers as the leader tells them), so two
 * members with the same log may hold different ones.
 *
 * <p>Used on the thread that owns the database (the stream processor's).
 */
final class ExporterPositions {

  /** The family: exporter id → acknowledged position. */
  enum Family implements ColumnFamilyDefinition {
    EXPORTER_POSITIONS;

    @Override
    public boolean includedInDigest() {
      return false;
    }
  }

  /** No position acknowledged. */
  static final long NONE = -1L;

  private final CairnDb db;
  private final ColumnFamily<String, Long> positions;

  ExporterPositions(CairnDb db) {
    this.db = db;
    this.positions = db.columnFamily(Family.EXPORTER_POSITIONS, DbCodecs.STRING, DbCodecs.LONG);
  }

  /** The position of {@code exporterId}, or {@link #NONE}. */
  long get(String exporterId) {
    Long position = positions.get(exporterId);
    return position == null ? NONE : position;
  }

  /** Every stored position, by exporter id. */
  Map<String, Long> all() {
    Map<String, Long> all = new LinkedHashMap<>();
    positions.forEach(all::put);
    return all;
  }

  /**
   * Raises the stored positions to {@code updates} (a lower position than stored is ignored: they
   * only move forward) in one transaction.
   */
  void raise(Map<String, Long> updates) {
    db.runInTransaction(
        () ->
            updates.forEach(
                (id, position) -> {
                  if (position > get(id)) {
                    positions.put(id, position);
                  }
                }));
  }

  /** Drops the positions of exporters no longer configured, so they hold nothing. */
  void retainOnly(Collection<String> exporterIds) {
    db.runInTransaction(
        () -> {
          for (String id : all().keySet()) {
            if (!exporterIds.contains(id)) {
              positions.delete(id);
            }
          }
        });
  }

  /** The lowest position of {@code exporterIds}; 0 when one has none (none exported yet). */
  long lowest(Collection<String> exporterIds) {
    long lowest = Long.MAX_VALUE;
    for (String id : exporterIds) {
      lowest = Math.min(lowest, Math.max(0, get(id)));
    }
    return lowest == Long.MAX_VALUE ? 0 : lowest;
  }
}
