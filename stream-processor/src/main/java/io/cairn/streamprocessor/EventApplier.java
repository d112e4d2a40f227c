package io.cairn.streamprocessor;

import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;

/**
 * Applies one kind of event (one {@code (ValueType, Intent)}) to the partition's state. The only
 * code that writes state: on the leader when a processor appends the event, on followers and at
 * restart when the event is replayed. So {@code state = fold(events)} everywhere.
 *
 * <p>Rules: deterministic, and a function of the state and the event only. The event's {@link
 * RecordMetadata#position()} is always {@link RecordMetadata#NO_POSITION} here (the leader applies
 * the event before it is written), so it cannot make a leader and a follower differ; use the key,
 * the value, the timestamp and the source position.
 *
 * <p>An applier that throws fails the partition (the state no longer follows the log); it is never
 * skipped. An event that changes nothing still needs an applier: register {@link #NONE}.
 */
@FunctionalInterface
public interface EventApplier {

  /** An applier for events that change no state. */
  EventApplier NONE = event -> {};

  /** Applies {@code event} to state, inside the current transaction. */
  void apply(Record event);
}
