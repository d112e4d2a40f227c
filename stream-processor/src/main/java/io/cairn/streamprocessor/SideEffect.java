package io.cairn.streamprocessor;

/**
 * An effect outside the partition's state (sending a command to another partition, scheduling a
 * retry). Runs on the stream processor's thread only after the batch of the command that produced
 * it is committed, and only on the leader that processed it — never during replay. It may run again
 * after a failover (the new leader reprocesses or re-sends), so it must be safe to repeat.
 *
 * <p>One that throws is logged at WARN and counted; the next ones still run.
 */
@FunctionalInterface
public interface SideEffect {

  void run() throws Exception;
}
