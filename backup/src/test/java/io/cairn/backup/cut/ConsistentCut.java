package io.cairn.backup.cut;

import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.TransferIntent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Checks that the checkpoints of one id form a consistent cut across partitions, from their
 * committed logs alone.
 *
 * <p>The cut of partition {@code p} for checkpoint {@code c} is the position of the {@code
 * CHECKPOINT CREATE} its {@code CREATED(c)} was taken at: the state at the checkpoint holds exactly
 * the commands before that position. A credit is applied before the cut on its target when its
 * {@code CREDIT APPLY} command (the source position of {@code APPLIED}) is before the target's cut;
 * its debit is after the cut on the source when its {@code TRANSFER CREATE} command (the source
 * position of {@code DEBITED}) is after the source's cut. A cut is consistent iff no credit is
 * applied before the cut whose debit is after it: money never arrives at the checkpoint without
 * having left.
 */
final class ConsistentCut {

  /** A credit applied before the target's cut whose debit is not before the source's cut. */
  record Violation(
      long checkpointId,
      int sourcePartition,
      int targetPartition,
      long transferKey,
      long transferCommandPosition,
      OptionalLong sourceCut,
      long applyCommandPosition,
      long targetCut) {}

  private ConsistentCut() {}

  /** The cut position of checkpoint {@code checkpointId} in {@code log}, if it was taken. */
  static OptionalLong cut(List<Record> log, long checkpointId) {
    for (Record record : log) {
      if (record.metadata().recordType() == RecordType.EVENT
          && record.metadata().intent() == CheckpointIntent.CREATED
          && ((CheckpointValue) record.value()).checkpointId() == checkpointId) {
        return OptionalLong.of(((CheckpointValue) record.value()).checkpointPosition());
      }
    }
    return OptionalLong.empty();
  }

  /**
   * @param logs the committed records of partitions 1..n (index 0 = partition 1)
   */
  static List<Violation> violations(List<List<Record>> logs, long checkpointId) {
    List<Violation> violations = new ArrayList<>();
    List<Map<Long, Long>> transferCommands = new ArrayList<>();
    for (List<Record> log : logs) {
      Map<Long, Long> byKey = new HashMap<>();
      for (Record record : log) {
        if (isEvent(record, TransferIntent.DEBITED)) {
          byKey.put(record.metadata().key(), record.metadata().sourcePosition());
        }
      }
      transferCommands.add(byKey);
    }
    for (int target = 1; target <= logs.size(); target++) {
      OptionalLong targetCut = cut(logs.get(target - 1), checkpointId);
      if (targetCut.isEmpty()) {
        continue; // no checkpoint here: nothing is "before" it
      }
      for (Record record : logs.get(target - 1)) {
        if (!isEvent(record, CreditIntent.APPLIED)
            || record.metadata().sourcePosition() >= targetCut.getAsLong()) {
          continue;
        }
        CreditValue credit = (CreditValue) record.value();
        int source = credit.sourcePartitionId();
        OptionalLong sourceCut = cut(logs.get(source - 1), checkpointId);
        Long transferCommand = transferCommands.get(source - 1).get(credit.transferKey());
        if (sourceCut.isEmpty()
            || transferCommand == null
            || transferCommand >= sourceCut.getAsLong()) {
          violations.add(
              new Violation(
                  checkpointId,
                  source,
                  target,
                  credit.transferKey(),
                  transferCommand == null ? -1 : transferCommand,
                  sourceCut,
                  record.metadata().sourcePosition(),
                  targetCut.getAsLong()));
        }
      }
    }
    return violations;
  }

  private static boolean isEvent(Record record, io.cairn.protocol.Intent intent) {
    return record.metadata().recordType() == RecordType.EVENT
        && record.metadata().intent() == intent;
  }
}
