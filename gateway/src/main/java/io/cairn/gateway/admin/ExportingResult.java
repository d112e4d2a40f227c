package io.cairn.gateway.admin;

import java.util.List;

/**
 * The brokers' answer to pausing or resuming exporting.
 *
 * @param paused whether exporting is paused on every broker that answered
 * @param nodeIds the brokers that confirmed, ascending
 */
public record ExportingResult(boolean paused, List<Integer> nodeIds) {
  public ExportingResult {
    nodeIds = List.copyOf(nodeIds);
  }
}
