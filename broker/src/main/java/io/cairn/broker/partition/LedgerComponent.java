package io.cairn.broker.partition;

import io.cairn.db.CairnDb;
import io.cairn.engine.CheckpointIdSupplier;
import io.cairn.engine.InterPartitionSender;
import io.cairn.engine.LedgerColumnFamily;
import io.cairn.engine.LedgerEngine;
import io.cairn.engine.LedgerEngineConfig;
import io.cairn.scheduler.Cancellable;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

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
 * <p>The checkpoint id stamped on inter-partition commands comes from the checkpoint records'
 * state: build it with {@link BackupComponent#checkpointIds(CairnDb)} and register the {@link
 * BackupComponent} <em>before</em> this one (its interceptor must see every command first).
 */
public final class LedgerComponent implements PartitionComponent {

  private final LedgerEngineConfig config;
  private final InterPartitionSender sender;
  private final Function<CairnDb, CheckpointIdSupplier> checkpointIds;

  // partition thread
  private Cancellable creditRetries;
  private volatile LedgerEngine engine;

  /**
   * @param config the engine's settings (the cluster's partition count among them)
   * @param sender sends inter-partition commands to other partitions' leaders
   * @param checkpointIds the checkpoint id supplier over a run's database
   */
  public LedgerComponent(
      final LedgerEngineConfig config,
      final InterPartitionSender sender,
      final Function<CairnDb, CheckpointIdSupplier> checkpointIds) {
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
  public void registerProcessors(
      final ProcessingScope scope, final RecordProcessors.Builder processors) {
    final PartitionContext partition = scope.partition();
    final LedgerEngine created =
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
  public void onBecomeLeader(final ProcessingScope scope, final StreamProcessor processor) {
    creditRetries = engine.startCreditRetries(processor, scope.logStream());
  }

  @Override
  public void onProcessingStopped(final ProcessingScope scope) {
    if (creditRetries != null) {
      creditRetries.cancel();
      creditRetries = null;
    }
    engine = null;
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
