package io.cairn.engine;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamily;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbCodecs;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.RecordMetadata;
import io.cairn.streamprocessor.EventApplier;
import io.cairn.streamprocessor.RecordProcessors;
import java.util.List;

/**
 * A minimal stand-in for the checkpoint processor (DESIGN.md §7) so that the engine's {@link
 * CheckpointIdSupplier} reads a checkpoint id from state, as the real one will: {@code CHECKPOINT
 * CREATE(id)} gives {@code CREATED} if {@code id} is higher than the last one (its applier stores
 * the id), {@code IGNORED} otherwise. No interceptor, no backup.
 */
public final class TestCheckpoints implements CheckpointIdSupplier {

  /** The family holding the last checkpoint id; excluded from the digest, like the real one. */
  public static final ColumnFamilyDefinition FAMILY =
      ColumnFamilyDefinition.excluded("TEST_CHECKPOINT");

  /** The families to open the database with, besides the ledger's. */
  public static final List<ColumnFamilyDefinition> FAMILIES = List.of(FAMILY);

  private static final String KEY = "last";
  private final ColumnFamily<String, Long> lastId;

  public TestCheckpoints(CairnDb db) {
    lastId = db.columnFamily(FAMILY, DbCodecs.STRING, DbCodecs.LONG);
  }

  @Override
  public long latestCheckpointId() {
    Long id = lastId.get(KEY);
    return id == null ? RecordMetadata.NO_CHECKPOINT_ID : id;
  }

  /** Registers {@code CHECKPOINT CREATE} and its events. */
  public RecordProcessors.Builder register(RecordProcessors.Builder builder) {
    return builder
        .processor(
            CheckpointIntent.CREATE,
            (context, result) -> {
              CheckpointValue value = (CheckpointValue) context.value();
              if (value.checkpointId() > latestCheckpointId()) {
                result.appendEventAndRespond(
                    value.checkpointId(),
                    CheckpointIntent.CREATED,
                    new CheckpointValue(
                        value.checkpointId(), context.position(), context.timestamp()));
              } else {
                result.appendEventAndRespond(
                    latestCheckpointId(),
                    CheckpointIntent.IGNORED,
                    new CheckpointValue(
                        latestCheckpointId(), context.position(), context.timestamp()));
              }
            })
        .applier(
            CheckpointIntent.CREATED,
            event -> lastId.put(KEY, ((CheckpointValue) event.value()).checkpointId()))
        .applier(CheckpointIntent.IGNORED, EventApplier.NONE);
  }
}
