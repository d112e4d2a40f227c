package io.cairn.engine;

import io.cairn.protocol.Record;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link InterPartitionSender} that records what it is asked to send and checks the contract.
 */
public final class RecordingInterPartitionSender implements InterPartitionSender {

  /** One send. */
  public record Sent(int targetPartitionId, Record command, long checkpointId) {}

  private final List<Sent> sent = new ArrayList<>();

  @Override
  public void send(int targetPartitionId, Record command, long checkpointId) {
    if (command.metadata().checkpointId() != checkpointId) {
      throw new AssertionError(
          "Expected the command to carry checkpoint id "
              + checkpointId
              + ", but its metadata has "
              + command.metadata().checkpointId());
    }
    sent.add(new Sent(targetPartitionId, command, checkpointId));
  }

  public List<Sent> sent() {
    return sent;
  }

  public void clear() {
    sent.clear();
  }
}
