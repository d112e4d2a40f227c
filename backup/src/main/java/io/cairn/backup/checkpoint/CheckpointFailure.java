package io.cairn.backup.checkpoint;

import io.cairn.streamprocessor.ProcessingContext;
import io.cairn.streamprocessor.ProcessingResultBuilder;

/**
 * Halts the partition when processing a checkpoint command fails: a checkpoint must never be
 * skipped or half-taken (DESIGN.md §7), so the failure is not turned into a rejection. {@link
 * ProcessingResultBuilder#failPartition} rolls the command's transaction back and stops the stream
 * processor with health {@code FAILED} and the reason built here.
 */
final class CheckpointFailure {

  private CheckpointFailure() {}

  /** Fails the partition because processing {@code context.command()} threw {@code failure}. */
  static void haltPartition(
      ProcessingContext context, ProcessingResultBuilder result, RuntimeException failure) {
    result.failPartition(
        "Expected to process the checkpoint command "
            + context.intent().name()
            + " at position "
            + context.position()
            + " (partition "
            + context.partitionId()
            + "), but it failed: "
            + failure
            + ". The partition halts rather than continue past a broken checkpoint.",
        failure);
  }
}
