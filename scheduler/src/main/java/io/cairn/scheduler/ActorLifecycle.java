package io.cairn.scheduler;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where an {@link Actor} is in its life, and the one place that changes it ({@link #transition}).
 * The actor's public life cycle has four phases ({@code NEW → STARTED → CLOSING → CLOSED}, see
 * {@link Actor}); inside, they are split into the states below, so the actor needs no flags beside
 * them. What {@link Actor#toString()} and the actor's messages show is the phase.
 *
 * <table>
 *   <caption>Actor states (phase) and their moves</caption>
 *   <tr><th>from</th><th>to</th><th>on</th></tr>
 *   <tr><td>NEW (NEW): tasks wait in the mailbox</td><td>STARTING</td>
 *       <td>a scheduler binds it ({@code start})</td></tr>
 *   <tr><td>NEW</td><td>CLOSED</td><td>{@code closeAsync} before that: queued tasks fail</td></tr>
 *   <tr><td>STARTING (STARTED): bound, {@code onStart} is the next unit of work</td>
 *       <td>STARTED</td><td>the first turn: {@code onStart} begins</td></tr>
 *   <tr><td>STARTING</td><td>STARTING_THEN_CLOSING</td><td>{@code closeAsync}</td></tr>
 *   <tr><td>STARTING_THEN_CLOSING (CLOSING): closed before {@code onStart} ran, which still runs
 *       first</td><td>CLOSING</td><td>the first turn: {@code onStart} begins</td></tr>
 *   <tr><td>STARTED (STARTED): tasks run, timers fire</td><td>CLOSING</td>
 *       <td>{@code closeAsync}</td></tr>
 *   <tr><td>STARTED, CLOSING</td><td>ABANDONING</td><td>{@code onStart} threw</td></tr>
 *   <tr><td>CLOSING (CLOSING): takes no tasks, runs the accepted ones</td><td>FINISHING</td>
 *       <td>the mailbox is empty</td></tr>
 *   <tr><td>ABANDONING (CLOSING): the queued tasks fail</td><td>FINISHING</td>
 *       <td>the mailbox is empty</td></tr>
 *   <tr><td>FINISHING (CLOSING): {@code onClose} runs</td><td>CLOSED</td>
 *       <td>{@code onClose} returned or threw</td></tr>
 *   <tr><td>CLOSED (CLOSED): the close future is completed</td><td>–</td><td>–</td></tr>
 * </table>
 *
 * <p>{@link #transition} refuses a move not in the table with an {@link IllegalStateException} and
 * logs each move once, at DEBUG: a line per move per actor would be noise at INFO (there is no
 * gauge). Written under the actor's lock, read anywhere: successive turns may run on different
 * workers, and the worker that releases the actor reads it.
 */
final class ActorLifecycle {

  private static final Logger LOG = LoggerFactory.getLogger(ActorLifecycle.class);

  /** The public life cycle (see {@link Actor}): what {@code toString} and messages show. */
  enum Phase {
    NEW,
    STARTED,
    CLOSING,
    CLOSED
  }

  /** The states of the class doc's table. */
  enum State {
    NEW(Phase.NEW),
    STARTING(Phase.STARTED),
    STARTED(Phase.STARTED),
    STARTING_THEN_CLOSING(Phase.CLOSING),
    CLOSING(Phase.CLOSING),
    ABANDONING(Phase.CLOSING),
    FINISHING(Phase.CLOSING),
    CLOSED(Phase.CLOSED);

    final Phase phase;

    State(Phase phase) {
      this.phase = phase;
    }

    /** Whether the class doc's table has {@code this -> next}. */
    boolean canBecome(State next) {
      return switch (this) {
        case NEW -> next == STARTING || next == CLOSED;
        case STARTING -> next == STARTED || next == STARTING_THEN_CLOSING;
        case STARTING_THEN_CLOSING -> next == CLOSING;
        case STARTED -> next == CLOSING || next == ABANDONING;
        case CLOSING -> next == ABANDONING || next == FINISHING;
        case ABANDONING -> next == FINISHING;
        case FINISHING -> next == CLOSED;
        case CLOSED -> false;
      };
    }

    /** {@code onStart} is the next unit of work. */
    boolean startDue() {
      return this == STARTING || this == STARTING_THEN_CLOSING;
    }

    /** The accepted tasks run (or fail), then {@code onClose}. */
    boolean closeDue() {
      return this == CLOSING || this == ABANDONING;
    }

    /** Tasks are taken (NEW or STARTED phase); timers fire only in the STARTED phase. */
    boolean takesTasks() {
      return phase == Phase.NEW || phase == Phase.STARTED;
    }
  }

  private final String actorName;
  private final Object lock;
  private volatile State state = State.NEW;

  /**
   * @param lock the actor's lock, held for the check and the write of every move
   */
  ActorLifecycle(String actorName, Object lock) {
    this.actorName = actorName;
    this.lock = lock;
  }

  State state() {
    return state;
  }

  Phase phase() {
    return state.phase;
  }

  /**
   * Moves to {@code next}: checks the move against the class doc's table and logs it at DEBUG.
   *
   * @param on what made the move, for the log line
   * @throws IllegalStateException if the move is not in the table
   */
  void transition(State next, String on) {
    State current;
    synchronized (lock) {
      current = state;
      if (!current.canBecome(next)) {
        throw new IllegalStateException(
            "Expected a move in the actor life-cycle table, but "
                + current
                + " -> "
                + next
                + " ("
                + on
                + ") is not one (actor "
                + actorName
                + ")");
      }
      state = next;
    }
    LOG.debug("Actor {}: {} -> {} ({})", actorName, current, next, on);
  }
}
