package io.cairn.backup.restore;

import io.cairn.backup.BackupMetrics;
import io.cairn.backup.CheckpointState;
import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbCodecs;
import io.cairn.db.Digest128;
import io.cairn.db.StateDigest;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.RecordType;
import io.cairn.streamprocessor.CommandInterceptor;
import io.cairn.streamprocessor.ProcessingContext;
import io.cairn.streamprocessor.ProcessingResultBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state digest check of a restored partition (DESIGN.md §10): when the leader processes the
 * command at the {@linkplain RestoreMarker#checkpointPosition() kept checkpoint position} again,
 * the state digest at that point — what the {@code CHECKPOINT CREATED} event is about to carry —
 * must equal the digest the backup recorded. A mismatch, another command at that position, or a
 * state that holds that checkpoint already fails the partition ({@link
 * ProcessingResultBuilder#failPartition}) with a report naming the digests and the restored state's
 * column families; it never serves a silently different state. A match is logged at INFO and the
 * command goes on to the checkpoint processor.
 *
 * <p>Register it on every stream processor (every role, every run) of a partition whose directory
 * holds a {@link RestoreMarker} — read once when the partition starts — right after the checkpoint
 * records (the consistent-cut interceptor lets {@code CHECKPOINT} commands through):
 *
 * <pre>{@code
 * CheckpointRecords.register(partitionId, db, builder, listener, metrics);
 * marker.ifPresent(
 *     m -> builder.interceptor(RestoredCheckpointCheck.failingPartition(m, db, metrics)));
 * }</pre>
 *
 * <p>Interceptors run only where commands are processed (the leader); replay and followers never
 * call it. So whichever member processes the kept command checks it: the first leader after the
 * restore, a later leader if that one's {@code CREATED} batch was lost, a leader after a restart
 * that came before the command was processed. Once {@code CREATED} is in the log the command is
 * never processed again and the check never runs again. Like every interceptor it reads state only
 * and is deterministic.
 */
public final class RestoredCheckpointCheck implements CommandInterceptor {

  /** Told the outcome of every check, on the processing thread. */
  @FunctionalInterface
  public interface Listener {
    Listener NONE = check -> {};

    void onChecked(DigestCheck check);
  }

  private static final Logger LOG = LoggerFactory.getLogger(RestoredCheckpointCheck.class);

  private final RestoreMarker marker;
  private final CairnDb db;
  private final CheckpointState checkpoints;
  private final boolean failOnMismatch;
  private final Listener listener;

  /**
   * @param failOnMismatch true: a mismatch fails the partition (a broker); false: only the listener
   *     is told (a verification, which reports instead)
   */
  public RestoredCheckpointCheck(
      RestoreMarker marker, CairnDb db, boolean failOnMismatch, Listener listener) {
    this.marker = Objects.requireNonNull(marker, "marker");
    this.db = Objects.requireNonNull(db, "db");
    this.checkpoints = CheckpointState.of(db);
    this.failOnMismatch = failOnMismatch;
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** The check a broker registers: a mismatch fails the partition. */
  public static RestoredCheckpointCheck failingPartition(RestoreMarker marker, CairnDb db) {
    return new RestoredCheckpointCheck(marker, db, true, Listener.NONE);
  }

  /**
   * The check a broker registers, counting every outcome in {@code metrics} ({@value
   * BackupMetrics#RESTORE_CHECKS}): a mismatch fails the partition.
   */
  public static RestoredCheckpointCheck failingPartition(
      RestoreMarker marker, CairnDb db, BackupMetrics metrics) {
    Objects.requireNonNull(metrics, "metrics");
    return new RestoredCheckpointCheck(
        marker, db, true, check -> metrics.restoreCheck(check.result()));
  }

  @Override
  public Decision intercept(ProcessingContext context, ProcessingResultBuilder result) {
    if (context.position() != marker.checkpointPosition()) {
      return Decision.CONTINUE;
    }
    DigestCheck check = check(context);
    try {
      listener.onChecked(check);
    } catch (RuntimeException e) {
      LOG.warn("Partition {}: a digest check listener failed", context.partitionId(), e);
    }
    if (check.matches()) {
      LOG.info("Partition {} restored: {}", context.partitionId(), check.describe());
      return Decision.CONTINUE;
    }
    if (failOnMismatch) {
      // no log here: the stream processor logs the partition's failure with this report (ERROR)
      result.failPartition(check.describe());
      return Decision.HANDLED;
    }
    return Decision.CONTINUE;
  }

  private DigestCheck check(ProcessingContext context) {
    Optional<String> problem = problem(context);
    if (problem.isPresent()) {
      return new DigestCheck(
          context.partitionId(),
          marker.backupId(),
          marker.checkpointPosition(),
          marker.stateDigest(),
          Optional.empty(),
          List.of(),
          problem,
          marker.familyDigests());
    }
    StateDigest digest = db.stateDigest();
    String actual = digest.toHex();
    return new DigestCheck(
        context.partitionId(),
        marker.backupId(),
        marker.checkpointPosition(),
        marker.stateDigest(),
        Optional.of(actual),
        actual.equals(marker.stateDigest()) ? List.of() : families(db, digest),
        Optional.empty(),
        marker.familyDigests());
  }

  private Optional<String> problem(ProcessingContext context) {
    var metadata = context.command().metadata();
    // a backup's checkpoint is a CREATE; a restore point may also be a marker's MARK
    if (metadata.recordType() != RecordType.COMMAND
        || (metadata.intent() != CheckpointIntent.CREATE
            && metadata.intent() != CheckpointIntent.MARK)
        || ((CheckpointValue) context.value()).checkpointId() != marker.backupId()) {
      return Optional.of(
          "the command at that position is "
              + metadata.recordType()
              + " "
              + metadata.valueType()
              + " "
              + metadata.intent().name()
              + ", not CHECKPOINT CREATE or MARK("
              + marker.backupId()
              + ")");
    }
    long latest = checkpoints.latestCheckpointId();
    if (latest >= marker.backupId()) {
      return Optional.of(
          "the restored state holds checkpoint "
              + latest
              + " already, so CREATE("
              + marker.backupId()
              + ") would be ignored");
    }
    return Optional.empty();
  }

  /** Every digested family of {@code db} with its entry count and digest (a full scan). */
  public static List<FamilyState> families(CairnDb db, StateDigest digest) {
    List<FamilyState> families = new ArrayList<>();
    Map<String, Digest128> digests = digest.families();
    for (ColumnFamilyDefinition definition : db.families()) {
      if (!definition.includedInDigest()) {
        continue;
      }
      long[] entries = {0};
      db.columnFamily(definition, DbCodecs.BYTES, DbCodecs.BYTES).forEach((k, v) -> entries[0]++);
      Digest128 familyDigest = digests.getOrDefault(definition.name(), Digest128.ZERO);
      families.add(new FamilyState(definition.name(), entries[0], familyDigest.toHex()));
    }
    return families;
  }
}
