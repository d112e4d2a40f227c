package io.cairn.engine;

import io.cairn.db.CairnDb;
import io.cairn.engine.credit.CreditRetryLoop;
import io.cairn.engine.credit.CreditRetryPlanner;
import io.cairn.engine.credit.CreditSender;
import io.cairn.engine.credit.CreditTracker;
import io.cairn.engine.processing.AccountProcessors;
import io.cairn.engine.processing.CreditProcessors;
import io.cairn.engine.processing.LedgerAppliers;
import io.cairn.engine.processing.TransferProcessor;
import io.cairn.engine.state.LedgerStore;
import io.cairn.logstreams.LogStream;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.scheduler.Cancellable;
import io.cairn.scheduler.Clock;
import io.cairn.streamprocessor.EventApplier;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessor;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The ledger engine of one partition (DESIGN.md §6): registers its command processors and event
 * appliers with a stream processor, and on a leader re-sends unacknowledged credits.
 *
 * <pre>{@code
 * LedgerEngine engine = LedgerEngine.builder()
 *     .partitionId(2).db(db)                      // db opened with LedgerColumnFamily.all()
 *     .config(LedgerEngineConfig.of(partitionCount))
 *     .sender(interPartitionSender)               // InterPartitionSender.NONE for one partition
 *     .checkpointIds(CheckpointIdSupplier.NONE)   // the checkpoint module plugs in here
 *     .clock(scheduler.clock()).meterRegistry(registry)
 *     .build();
 * RecordProcessors processors = engine.register(RecordProcessors.builder()).build();
 * StreamProcessor processor = StreamProcessor.builder()...processors(processors)...build();
 * scheduler.start(processor);
 * Cancellable retries = engine.startCreditRetries(processor, logStream);  // leaders only
 * OptionalLong balance = processor.call(() -> engine.state().balance("alice")).join();
 * }</pre>
 *
 * <p>One engine per stream processor: a new leader (or a rebuilt follower) gets a new engine, since
 * the engine keeps in memory which credits its leader sent. {@link #close()} it when its processor
 * stopped: it removes the engine's meters.
 */
public final class LedgerEngine implements AutoCloseable {

  private final int partitionId;
  private final LedgerEngineConfig config;
  private final Clock clock;
  private final LedgerStore store;
  private final LedgerState state;
  private final AccountPlacement placement;
  private final LedgerMetrics metrics;
  private final CreditSender creditSender;
  private final CreditTracker tracker = new CreditTracker();
  private final CheckpointIdSupplier checkpointIds;

  private LedgerEngine(Builder builder) {
    partitionId = builder.partitionId;
    config = builder.config;
    clock = builder.clock;
    checkpointIds = builder.checkpointIds;
    store = new LedgerStore(builder.db);
    state = new LedgerState(store);
    placement = new AccountPlacement(config.partitionCount());
    metrics = new LedgerMetrics(builder.registry, partitionId);
    creditSender = new CreditSender(partitionId, builder.sender, metrics);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Registers every ledger processor and applier on {@code builder}.
   *
   * @return {@code builder}
   * @throws IllegalArgumentException if one of the ledger's kinds is registered already
   */
  public RecordProcessors.Builder register(RecordProcessors.Builder builder) {
    AccountProcessors accounts = new AccountProcessors(store, placement);
    TransferProcessor transfers =
        new TransferProcessor(store, placement, creditSender, tracker, clock);
    CreditProcessors credits = new CreditProcessors(store, placement, creditSender, checkpointIds);
    LedgerAppliers appliers = new LedgerAppliers(store, checkpointIds);
    return builder
        .processor(AccountIntent.CREATE, accounts::createAccount)
        .applier(AccountIntent.CREATED, appliers::accountCreated)
        .processor(DepositIntent.DEPOSIT, accounts::deposit)
        .applier(DepositIntent.DEPOSITED, appliers::deposited)
        .processor(TransferIntent.CREATE, transfers::create)
        .applier(TransferIntent.DEBITED, appliers::debited)
        .applier(TransferIntent.COMPLETED, appliers::completed)
        .applier(TransferIntent.REFUNDED, appliers::refunded)
        .processor(CreditIntent.APPLY, credits::apply)
        .applier(CreditIntent.APPLIED, appliers::creditApplied)
        .applier(CreditIntent.IGNORED, EventApplier.NONE)
        .applier(CreditIntent.REFUSED, appliers::creditRefused)
        .processor(CreditIntent.ACK, credits::acknowledge)
        .applier(CreditIntent.ACKNOWLEDGED, appliers::creditAcknowledged)
        .processor(CreditIntent.REFUND, credits::refund);
  }

  /**
   * Starts re-sending unacknowledged credits while {@code processor} leads: every pending credit
   * once processing started (and its state is committed), then each one again after {@link
   * LedgerEngineConfig#creditRetryInterval()}, doubling up to {@link
   * LedgerEngineConfig#creditRetryIntervalMax()}, until acknowledged or refunded. Runs on the
   * processor's actor; stops by itself when the processor stops leading. Call it after the
   * processor was started on its scheduler.
   *
   * @throws IllegalArgumentException if the processor or log belongs to another partition
   * @throws IllegalStateException if the processor was not started
   */
  public Cancellable startCreditRetries(StreamProcessor processor, LogStream logStream) {
    if (processor.partitionId() != partitionId || logStream.partitionId() != partitionId) {
      throw new IllegalArgumentException(
          "Expected a stream processor and log of partition "
              + partitionId
              + ", but they belong to partitions "
              + processor.partitionId()
              + " and "
              + logStream.partitionId());
    }
    return CreditRetryLoop.start(
        processor,
        logStream,
        store,
        tracker,
        new CreditRetryPlanner(
            config.creditRetryInterval(),
            config.creditRetryIntervalMax(),
            config.maxCreditsPerRetry()),
        creditSender,
        metrics,
        clock,
        config.creditRetryCheckInterval());
  }

  /**
   * Removes the engine's meters from the registry ({@link LedgerMetrics#close()}); call it when the
   * engine's stream processor stopped, before the next engine of the partition is built on the same
   * registry. Idempotent. Processors and appliers registered before keep working, but their
   * counting is no longer reported.
   */
  @Override
  public void close() {
    metrics.close();
  }

  /** The read-only view of this partition's ledger (use it on the partition's thread). */
  public LedgerState state() {
    return state;
  }

  public int partitionId() {
    return partitionId;
  }

  public LedgerEngineConfig config() {
    return config;
  }

  public AccountPlacement placement() {
    return placement;
  }

  /** Collects what an engine needs; every field is required unless it has a default. */
  public static final class Builder {
    private int partitionId = -1;
    private CairnDb db;
    private LedgerEngineConfig config;
    private InterPartitionSender sender = InterPartitionSender.NONE;
    private CheckpointIdSupplier checkpointIds = CheckpointIdSupplier.NONE;
    private Clock clock;
    private MeterRegistry registry;

    private Builder() {}

    /** The partition this engine runs on, in [1, partitionCount]. */
    public Builder partitionId(int value) {
      partitionId = value;
      return this;
    }

    /** The partition's state, opened with {@link LedgerColumnFamily#all()} among its families. */
    public Builder db(CairnDb value) {
      db = value;
      return this;
    }

    public Builder config(LedgerEngineConfig value) {
      config = value;
      return this;
    }

    /** {@link InterPartitionSender#NONE} by default. */
    public Builder sender(InterPartitionSender value) {
      sender = value;
      return this;
    }

    /** {@link CheckpointIdSupplier#NONE} by default. */
    public Builder checkpointIds(CheckpointIdSupplier value) {
      checkpointIds = value;
      return this;
    }

    /** The scheduler's clock: times credit sends and re-sends (never used for processing). */
    public Builder clock(Clock value) {
      clock = value;
      return this;
    }

    public Builder meterRegistry(MeterRegistry value) {
      registry = value;
      return this;
    }

    /**
     * @throws IllegalArgumentException naming a missing setting, a partition id outside [1,
     *     partitionCount], or a database opened without the ledger's families
     */
    public LedgerEngine build() {
      require(db, "db");
      require(config, "config");
      require(sender, "sender");
      require(checkpointIds, "checkpointIds");
      require(clock, "clock");
      require(registry, "meterRegistry");
      if (partitionId < 1 || partitionId > config.partitionCount()) {
        throw new IllegalArgumentException(
            "Expected partitionId in [1, "
                + config.partitionCount()
                + "], but was "
                + partitionId
                + " (LedgerEngine)");
      }
      return new LedgerEngine(this);
    }

    private static void require(Object value, String name) {
      if (value == null) {
        throw new IllegalArgumentException(
            "Expected " + name + " to be set, but it is missing (LedgerEngine)");
      }
    }
  }
}
