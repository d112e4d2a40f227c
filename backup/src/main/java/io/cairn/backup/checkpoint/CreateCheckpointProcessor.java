package io.cairn.backup.checkpoint;

import io.cairn.backup.Checkpoint;
import io.cairn.backup.CheckpointListener;
import io.cairn.backup.CheckpointOrigin;
import io.cairn.db.CairnDb;
import io.cairn.db.StateDigest;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RejectionType;
import io.cairn.streamprocessor.CommandProcessor;
import io.cairn.streamprocessor.ProcessingContext;
import io.cairn.streamprocessor.ProcessingResultBuilder;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code CHECKPOINT CREATE(id)} and {@code MARK(id)}: if {@code id} is higher than the partition's
 * latest checkpoint id, {@code CREATED} at this command's position with the state digest of the
 * partition at this point (the checkpoint bookkeeping is not in the digest); otherwise {@code
 * IGNORED} carrying the current checkpoint id and position. The requester gets the event as
 * response. An id below 1 is rejected ({@code INVALID_ARGUMENT}). Any other failure halts the
 * partition.
 *
 * <p>On a {@code CREATED}, after its applier ran, the {@link CheckpointListener} (the leader's
 * backup manager) is told, with what asked for it: a {@code MARK} (a marker), a {@code CREATE} the
 * cut interceptor wrote (it has a source position: stamped) or another {@code CREATE} (a backup).
 * An {@code IGNORED} request for the latest checkpoint itself tells the listener what that
 * checkpoint was asked to be.
 */
final class CreateCheckpointProcessor implements CommandProcessor {

  private static final Logger LOG = LoggerFactory.getLogger(CreateCheckpointProcessor.class);

  private final CairnDb db;
  private final DbCheckpointState state;
  private final CheckpointListener listener;

  CreateCheckpointProcessor(CairnDb db, DbCheckpointState state, CheckpointListener listener) {
    this.db = db;
    this.state = state;
    this.listener = listener;
  }

  @Override
  public void process(ProcessingContext context, ProcessingResultBuilder result) {
    Checkpoint created;
    try {
      created = createOrIgnore(context, result);
    } catch (RuntimeException e) {
      // An applier's failure halted the partition already (the first halt's reason is kept).
      CheckpointFailure.haltPartition(context, result, e);
      return;
    }
    if (created != null) {
      notifyListener(context, created);
    }
  }

  private static CheckpointOrigin origin(ProcessingContext context) {
    if (context.intent() == CheckpointIntent.MARK) {
      return CheckpointOrigin.MARKER;
    }
    return context.command().metadata().sourcePosition() == RecordMetadata.NO_POSITION
        ? CheckpointOrigin.BACKUP
        : CheckpointOrigin.STAMPED;
  }

  /** Appends {@code CREATED} or {@code IGNORED} (or a rejection); the checkpoint if created. */
  private Checkpoint createOrIgnore(ProcessingContext context, ProcessingResultBuilder result) {
    CheckpointValue requested = (CheckpointValue) context.value();
    long id = requested.checkpointId();
    if (id < 1) {
      result.reject(
          RejectionType.INVALID_ARGUMENT,
          "Expected a checkpoint id >= 1, but was "
              + id
              + " (partition "
              + context.partitionId()
              + ")");
      return null;
    }
    Optional<Checkpoint> latest = state.latestCheckpoint();
    if (latest.isPresent() && id <= latest.get().id()) {
      Checkpoint current = latest.get();
      result.appendEventAndRespond(
          context.key(),
          CheckpointIntent.IGNORED,
          new CheckpointValue(current.id(), current.position(), current.timestamp()));
      CheckpointOrigin origin = origin(context);
      if (id == current.id() && origin != CheckpointOrigin.STAMPED) {
        try {
          listener.onCheckpointRequested(id, origin);
        } catch (RuntimeException e) {
          LOG.warn("Partition {}: the checkpoint listener failed", context.partitionId(), e);
        }
      }
      return null;
    }
    StateDigest digest = db.stateDigest();
    Checkpoint checkpoint =
        new Checkpoint(
            id, context.position(), context.timestamp(), digest.total(), digest.families());
    result.appendEventAndRespond(
        context.key(),
        CheckpointIntent.CREATED,
        new CheckpointValue(
            checkpoint.id(),
            checkpoint.position(),
            checkpoint.timestamp(),
            DigestBytes.toBytes(checkpoint.stateDigest())));
    return checkpoint;
  }

  private void notifyListener(ProcessingContext context, Checkpoint checkpoint) {
    try {
      listener.onCheckpointTaken(checkpoint, origin(context));
    } catch (RuntimeException e) {
      // The checkpoint itself is sound; only its backup on this member is lost.
      LOG.error(
          "Partition {}: the backup manager refused checkpoint {} at position {}; this member"
              + " takes no backup of it. Take a backup with a new id.",
          context.partitionId(),
          checkpoint.id(),
          checkpoint.position(),
          e);
    }
  }
}
