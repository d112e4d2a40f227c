package io.cairn.exporter;

/**
 * Receives the committed records of one partition, in position order, on the partition leader
 * (DESIGN.md §11). One instance per partition and leadership: the broker creates it when the
 * partition's member becomes leader and closes it when that leadership ends.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>Every method, and every task scheduled through {@link ExporterController#scheduleTask},
 *       runs on one thread at a time (the partition's exporter director), never concurrently.
 *   <li>{@link #open} is called once, before any record; {@link #export} once per record, in
 *       position order; {@link #close} once, last (also when {@code open} failed).
 *   <li><b>At least once.</b> The broker hands a record again after a restart or a leader change
 *       unless its position was acknowledged with {@link
 *       ExporterController#updateLastExportedPosition}. Acknowledge a position only once the record
 *       (and every record before it) is durable where it is going.
 *   <li><b>Failures.</b> If {@link #export} throws, the broker calls it again with the same record
 *       after a backoff (doubling up to a maximum), and does not go on until it succeeds;
 *       processing on the partition is not affected. An export that wrote part of its output before
 *       it threw may therefore repeat it. If {@link #open} throws, the broker closes that instance
 *       and opens a new one after the backoff.
 *   <li>Acknowledged positions bound log compaction: while an exporter does not acknowledge, the
 *       log is kept. Exporting can be paused cluster-wide; then no record is handed over.
 *   <li>Exporters must not block for long: they share their thread with the other exporters of the
 *       partition (flush and fsync in batches, on a timer).
 * </ul>
 */
public interface Exporter {

  /**
   * Prepares to export: reads and checks the configuration, opens files or connections.
   *
   * @throws Exception to be retried with backoff on a new instance (an {@link
   *     IllegalArgumentException} about the configuration is retried too: the broker validates the
   *     built-in exporters' configuration when it starts)
   */
  void open(ExporterContext context) throws Exception;

  /**
   * Exports one record.
   *
   * @throws Exception to be called again with the same record after a backoff
   */
  void export(ExportedRecord record) throws Exception;

  /**
   * Flushes what can be flushed (acknowledging it) and releases every resource. Exceptions are
   * logged and otherwise ignored.
   */
  void close() throws Exception;
}
