package io.cairn.broker.partition;

import io.cairn.exporter.ExportedRecord;
import io.cairn.exporter.Exporter;
import io.cairn.exporter.ExporterContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * An exporter for tests, loaded by class name like any configured exporter. Its argument {@code
 * sink} names a {@link Sink} registered by the test, where it records what it is handed; it
 * acknowledges every record as soon as it is exported, and throws while the sink says so.
 */
public final class RecordingExporter implements Exporter {

  private static final Map<String, Sink> SINKS = new ConcurrentHashMap<>();

  private Sink sink;
  private ExporterContext context;

  /** What the exporters of one test saw, across instances (leaderships, restarts). */
  static final class Sink {
    final String name;
    final LongSupplier clock;

    /** Positions handed over, in order, across instances (duplicates after restarts). */
    final List<Long> exported = new CopyOnWriteArrayList<>();

    /** Per open: the position the instance resumed after. */
    final List<Long> openedAt = new CopyOnWriteArrayList<>();

    /** Per failed export: the clock's millis. */
    final List<Long> failedAtMillis = new CopyOnWriteArrayList<>();

    /** Exports to fail before they succeed again. */
    final AtomicInteger failuresLeft = new AtomicInteger();

    final AtomicInteger closes = new AtomicInteger();

    private Sink(String name, LongSupplier clock) {
      this.name = name;
      this.clock = clock;
    }

    long lastExported() {
      return exported.isEmpty() ? -1 : exported.get(exported.size() - 1);
    }
  }

  /** A new sink for one test. */
  static Sink sink(String name, LongSupplier clock) {
    Sink sink = new Sink(name, clock);
    SINKS.put(name, sink);
    return sink;
  }

  static void forget(Sink sink) {
    SINKS.remove(sink.name);
  }

  @Override
  public void open(ExporterContext context) {
    this.context = context;
    sink = SINKS.get(context.argument("sink").orElseThrow());
    sink.openedAt.add(context.controller().lastExportedPosition());
  }

  @Override
  public void export(ExportedRecord record) {
    if (sink.failuresLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
      sink.failedAtMillis.add(sink.clock.getAsLong());
      throw new IllegalStateException("test failure at position " + record.position());
    }
    sink.exported.add(record.position());
    context.controller().updateLastExportedPosition(record.position());
  }

  @Override
  public void close() {
    if (sink != null) {
      sink.closes.incrementAndGet();
    }
  }
}
