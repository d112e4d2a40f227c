package io.cairn.backup.schedule;

import java.util.concurrent.CompletableFuture;

/**
 * Writes {@code CHECKPOINT CREATE(id)} to every partition's leader, as the gateway's {@code
 * TakeBackup} does, and says what came of it. Sending an id again is safe: a partition that has it
 * answers {@code IGNORED}.
 */
@FunctionalInterface
public interface CheckpointTaker {

  /** Never fails exceptionally: a failure is a {@link TakeOutcome.Kind#FAILED} outcome. */
  CompletableFuture<TakeOutcome> take(long checkpointId);
}
