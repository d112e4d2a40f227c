package io.cairn.broker.partition;

import io.cairn.db.CairnDb;

/**
 * Where a partition's exporters stand, read from its state: recorded in every snapshot as its
 * exported position, and the bound below which the log may be compacted (DESIGN.md §8, §11). A
 * partition without exporters has none; its snapshots then record the processed position.
 */
@FunctionalInterface
public interface ExportedPositionSource {

  /**
   * The lowest position every configured exporter has acknowledged, as {@code db} holds it; 0 when
   * one has acknowledged nothing yet. Called on the thread that owns {@code db}.
   */
  long exportedPosition(CairnDb db);
}
