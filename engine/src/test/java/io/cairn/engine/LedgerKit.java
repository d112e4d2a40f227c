package io.cairn.engine;

import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.scheduler.Cancellable;
import io.cairn.streamprocessor.StreamProcessor;
import io.cairn.streamprocessor.StreamProcessorMode;
import io.cairn.streamprocessor.StreamProcessorTestKit;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One ledger partition (partition {@link StreamProcessorTestKit#PARTITION_ID} of {@code
 * partitionCount}) in a {@link StreamProcessorTestKit}: a real RocksDB state, an in-memory log, a
 * recording inter-partition sender and {@link TestCheckpoints} (so checkpoint ids come from state).
 * Shorthands write ledger commands and read the leader's ledger state.
 */
public final class LedgerKit implements AutoCloseable {

  public static final int PARTITION_ID = StreamProcessorTestKit.PARTITION_ID;

  private final StreamProcessorTestKit kit;
  private final AccountPlacement placement;
  private final RecordingInterPartitionSender sender = new RecordingInterPartitionSender();
  private final Map<String, LedgerEngine> engines = new HashMap<>();
  private Cancellable retries;

  public LedgerKit(Path directory, LedgerEngineConfig config) {
    placement = new AccountPlacement(config.partitionCount());
    kit =
        StreamProcessorTestKit.builder()
            .directory(directory)
            .families(families())
            .processors(
                (db, builder) -> {
                  TestCheckpoints checkpoints = new TestCheckpoints(db);
                  checkpoints.register(builder);
                  LedgerEngine engine =
                      LedgerEngine.builder()
                          .partitionId(PARTITION_ID)
                          .db(db)
                          .config(config)
                          .sender(sender)
                          .checkpointIds(checkpoints)
                          .clock(kit().clock())
                          .meterRegistry(new SimpleMeterRegistry())
                          .build();
                  engines.put(db.directory().getFileName().toString(), engine);
                  engine.register(builder);
                })
            .build();
  }

  /** A kit for partition 1 of {@code partitionCount} with the default engine settings. */
  public LedgerKit(Path directory, int partitionCount) {
    this(
        directory,
        LedgerEngineConfig.builder()
            .partitionCount(partitionCount)
            .creditRetryInterval(Duration.ofMillis(500))
            .creditRetryIntervalMax(Duration.ofSeconds(4))
            .creditRetryCheckInterval(Duration.ofMillis(50))
            .build());
  }

  // ---- life cycle -------------------------------------------------------------------------------

  /** Starts the leader replica as leader with credit retries, and runs until idle. */
  public StreamProcessor startLeader() {
    StreamProcessor processor = kit.startLeader();
    retries = engine().startCreditRetries(processor, kit.logStream());
    kit.runUntilIdle();
    return processor;
  }

  /** Closes the leader's processor, discards its state and starts a new leader from the log. */
  public StreamProcessor failOver() {
    kit.leader().discardState();
    StreamProcessor processor = kit.leader().start(StreamProcessorMode.LEADER);
    retries = engine().startCreditRetries(processor, kit.logStream());
    kit.runUntilIdle();
    return processor;
  }

  public Cancellable retries() {
    return retries;
  }

  @Override
  public void close() {
    kit.close();
  }

  // ---- commands ---------------------------------------------------------------------------------

  public long createAccount(String id) {
    return kit.writeCommand(AccountIntent.CREATE, new AccountValue(id, 0));
  }

  public long deposit(String id, long amount) {
    return kit.writeCommand(DepositIntent.DEPOSIT, new DepositValue(id, amount));
  }

  public long transfer(String from, String to, long amount) {
    return kit.writeCommand(
        TransferIntent.CREATE,
        new TransferValue(
            from, to, amount, ValueDescriptor.NO_PARTITION_ID, ValueDescriptor.NO_PARTITION_ID));
  }

  /** Writes an inter-partition command as the receiver would (no request, a checkpoint id). */
  public long writeCredit(CreditIntent intent, CreditValue credit, long checkpoint) {
    return kit.write(
        new Record(
            RecordMetadata.builder()
                .command(intent)
                .key(credit.transferKey())
                .checkpointId(checkpoint)
                .build(),
            credit));
  }

  /** Creates the accounts and deposits {@code amount} on each, then runs until idle. */
  public void open(long amount, String... ids) {
    for (String id : ids) {
      createAccount(id);
      if (amount > 0) {
        deposit(id, amount);
      }
    }
    kit.runUntilIdle();
  }

  // ---- reading ----------------------------------------------------------------------------------

  public StreamProcessorTestKit kit() {
    return kit;
  }

  public AccountPlacement placement() {
    return placement;
  }

  /** The engine of the current leader replica. */
  public LedgerEngine engine() {
    return Objects.requireNonNull(engines.get("leader"), "leader engine");
  }

  /** The engine of replica {@code name} (the last one started). */
  public LedgerEngine engine(String name) {
    return Objects.requireNonNull(engines.get(name), name + " engine");
  }

  public LedgerState state() {
    return engine().state();
  }

  public RecordingInterPartitionSender sender() {
    return sender;
  }

  /** Takes checkpoint {@code id} ({@code CHECKPOINT CREATE}) and runs until idle. */
  public void checkpointId(long id) {
    kit.writeCommand(CheckpointIntent.CREATE, new CheckpointValue(id, -1, -1));
    kit.runUntilIdle();
  }

  private static List<ColumnFamilyDefinition> families() {
    List<ColumnFamilyDefinition> families = new ArrayList<>(LedgerColumnFamily.all());
    families.addAll(TestCheckpoints.FAMILIES);
    return families;
  }

  /** An id placed on this kit's partition. */
  public String localId(String prefix) {
    return LedgerAccounts.on(placement, PARTITION_ID, prefix);
  }

  /** An id placed on {@code partitionId}. */
  public String idOn(int partitionId, String prefix) {
    return LedgerAccounts.on(placement, partitionId, prefix);
  }

  public long balance(String id) {
    return state().balance(id).orElseThrow();
  }

  /** The committed follow-ups of the command at {@code position}. */
  public List<Record> followUps(long position) {
    return kit.followUps(position);
  }

  /** The one committed rejection of the command at {@code position}. */
  public Record rejectionOf(long position) {
    List<Record> rejections =
        followUps(position).stream()
            .filter(r -> r.metadata().recordType() == RecordType.REJECTION)
            .toList();
    if (rejections.size() != 1) {
      throw new AssertionError(
          "Expected one rejection of the command at "
              + position
              + ", but got "
              + followUps(position));
    }
    return rejections.get(0);
  }

  public void runUntilIdle() {
    kit.runUntilIdle();
  }

  public void run(Duration duration) {
    kit.run(duration);
  }
}
