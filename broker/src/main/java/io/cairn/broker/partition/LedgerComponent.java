package io.cairn.broker.partition;

import io.cairn.db.CairnDb;
import io.cairn.engine.CheckpointIdSupplier;
import io.cairn.engine.InterPartitionSender;
import io.cairn.engine.LedgerColumnFamily;
import io.cairn.engine.LedgerEngine;
import io.cairn.engine.LedgerEngineConfig;
import io.cairn.engine.LedgerMetrics;
import io.cairn.scheduler.Cancellable;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The ledger engine (DESIGN.md §6) as a partition component; one instance per partition.
 *
 * <ul>
 *   <li>Every run gets a new {@link LedgerEngine} over the run's database (the engine keeps in
 *       memory which credits its leader sent), with the run's checkpoint id supplier.
 *   <li>On a leader, unacknowledged credits are re-sent ({@link LedgerEngine#startCreditRetries})
 *       until the run stops.
 * </ul>
 *
 * <p>Meters: the engine registers its meters ({@code cairn.engine.*}, tag {@code partition}) when
 * it is built. Its gauge {@value LedgerMetrics#PENDING_CREDITS} reads the engine instance it was
 * registered with, so it is removed before every new engine registers (a registry keeps the first
 * gauge of a name and tags); every engine meter of the partition is removed when the partition
 * closes.
 *
 * <p>The checkpoint id stamped on inter-partition commands comes from the checkpoint records'
 * state: build it with {@link BackupComponent#checkpointIds(CairnDb)} and register the {@link
 * BackupComponent} <em>before</em> this one (its interceptor must see every command first).
 */
public final class LedgerComponent implements PartitionComponent {

  /** The prefix of every engine meter's name ({@link LedgerMetrics}). */
  static final String ENGINE_METERS = "cairn.engine.";

  private final LedgerEngineConfig config;
  private final InterPartitionSender sender;
  private final Function<CairnDb, CheckpointIdSupplier> checkpointIds;

  // partition thread
  private Cancellable creditRetries;
  private PartitionContext context;
  private volatile LedgerEngine engine;

  /**
   * @param config the engine's settings (the cluster's partition count among them)
   * @param sender sends inter-partition commands to other partitions' leaders
   * @param checkpointIds the checkpoint id supplier over a run's database
   */
  public LedgerComponent(
      LedgerEngineConfig config,
      InterPartitionSender sender,
      Function<CairnDb, CheckpointIdSupplier> checkpointIds) {
    this.config = Objects.requireNonNull(config, "config");
    this.sender = Objects.requireNonNull(sender, "sender");
    this.checkpointIds = Objects.requireNonNull(checkpointIds, "checkpointIds");
  }

  @Override
  public String name() {
    return "ledger";
  }

  @Override
  public List<LedgerColumnFamily> columnFamilies() {
    return LedgerColumnFamily.all();
  }

  @Override
  public void registerProcessors(ProcessingScope scope, RecordProcessors.Builder processors) {
    PartitionContext partition = scope.partition();
    context = partition;
    removeMeters(partition, LedgerMetrics.PENDING_CREDITS::equals);
    LedgerEngine created =
        LedgerEngine.builder()
            .partitionId(scope.partitionId())
            .db(scope.db())
            .config(config)
            .sender(sender)
            .checkpointIds(checkpointIds.apply(scope.db()))
            .clock(partition.clock())
            .meterRegistry(partition.meterRegistry())
            .build();
    created.register(processors);
    engine = created;
  }

  @Override
  public void onBecomeLeader(ProcessingScope scope, StreamProcessor processor) {
    creditRetries = engine.startCreditRetries(processor, scope.logStream());
  }

  @Override
  public void onProcessingStopped(ProcessingScope scope) {
    if (creditRetries != null) {
      creditRetries.cancel();
      creditRetries = null;
    }
    engine = null;
  }

  @Override
  public void close() {
    if (context != null) {
      removeMeters(context, name -> name.startsWith(ENGINE_METERS));
    }
  }

  private static void removeMeters(PartitionContext partition, Predicate<String> names) {
    MeterRegistry registry = partition.meterRegistry();
    String partitionId = Integer.toString(partition.partitionId());
    for (Meter meter : List.copyOf(registry.getMeters())) {
      if (names.test(meter.getId().getName())
          && partitionId.equals(meter.getId().getTag("partition"))) {
        registry.remove(meter);
      }
    }
  }

  /**
   * The engine of the running stream processor, if one runs. Read its state only on that
   * processor's thread: {@code partition.readState(db ->
   * ledger.engine().orElseThrow().state()...)}.
   */
  public Optional<LedgerEngine> engine() {
    return Optional.ofNullable(engine);
  }
}
