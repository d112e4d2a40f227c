package io.cairn.gateway.admin;

import io.cairn.protocol.api.NodeRestoreState;
import io.cairn.protocol.api.NodeRestoreState.Phase;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How a restore through the API stands across the cluster: every configured broker's answer (or why
 * it gave none), folded into one state.
 *
 * @param brokers each configured broker's state, by node id; empty for a broker that did not answer
 * @param unreachable why each broker that did not answer gave none, by node id
 */
public record ClusterRestore(
    Map<Integer, Optional<NodeRestoreState>> brokers, Map<Integer, String> unreachable) {

  /** The cluster's state, as the API reports it. */
  public enum State {
    /** Every broker waits for a restore request. */
    WAITING,
    /** Brokers restore, or their partitions check their digests, or a broker did not answer. */
    IN_PROGRESS,
    /** Every broker's partitions passed the digest check. */
    COMPLETED,
    /** A broker's restore or a digest check failed. */
    FAILED,
    /** Every broker holds data and processes: none was started in restore mode. */
    NOT_IN_RESTORE_MODE
  }

  public ClusterRestore {
    brokers = Collections.unmodifiableMap(new TreeMap<>(brokers));
    unreachable = Collections.unmodifiableMap(new TreeMap<>(unreachable));
  }

  public State state() {
    List<Phase> phases =
        brokers.values().stream()
            .map(state -> state.map(NodeRestoreState::phase))
            .map(p -> p.orElse(null))
            .toList();
    if (phases.contains(Phase.FAILED)) {
      return State.FAILED;
    }
    if (phases.isEmpty() || phases.contains(null)) {
      return State.IN_PROGRESS;
    }
    if (phases.stream().allMatch(Phase.COMPLETED::equals)) {
      return State.COMPLETED;
    }
    if (phases.stream().allMatch(Phase.WAITING::equals)) {
      return State.WAITING;
    }
    if (phases.stream().allMatch(Phase.PROCESSING::equals)) {
      return State.NOT_IN_RESTORE_MODE;
    }
    return State.IN_PROGRESS;
  }

  /** The first answer that names a selection: what the cluster restores. */
  public Optional<NodeRestoreState> leading() {
    return brokers.values().stream()
        .flatMap(Optional::stream)
        .filter(state -> !state.selection().isEmpty())
        .findFirst();
  }

  /** Each broker's phase for the API: its phase, or UNREACHABLE. */
  public String phaseOf(int nodeId) {
    return Objects.requireNonNull(brokers.get(nodeId), "broker " + nodeId)
        .map(state -> state.phase().name())
        .orElse("UNREACHABLE");
  }

  /** Each broker's detail for the API: why it failed, or why it did not answer. */
  public String detailOf(int nodeId) {
    return brokers
        .get(nodeId)
        .map(NodeRestoreState::detail)
        .orElseGet(() -> unreachable.getOrDefault(nodeId, ""));
  }
}
