package io.cairn.client;

import java.util.List;

/**
 * The brokers' answer to pausing or resuming exporting.
 *
 * @param paused whether exporting is paused on the brokers that answered
 * @param nodeIds the brokers that confirmed, ascending
 */
public record ExportingState(boolean paused, List<Integer> nodeIds) {
  public ExportingState {
    nodeIds = List.copyOf(nodeIds);
  }
}
