package io.cairn.backup.schedule;

import java.util.Objects;

/**
 * What writing {@code CHECKPOINT CREATE(id)} to every partition came to.
 *
 * @param kind see {@link Kind}
 * @param highestId with {@link Kind#SUPERSEDED}, the higher id a partition holds; else the id
 * @param detail what failed, for {@link Kind#FAILED}; empty otherwise
 */
public record TakeOutcome(Kind kind, long highestId, String detail) {

  /** The outcomes, in the order a mixed answer is decided by (the first that applies). */
  public enum Kind {
    /** A partition could not be reached or refused; sending the same id again is safe. */
    FAILED,
    /**
     * A partition holds a higher id (a backup taken by hand, a later marker): this slot is skipped.
     */
    SUPERSEDED,
    /** At least one partition created the checkpoint now, the others had it. */
    TAKEN,
    /** Every partition had it already (the schedule ran it before a leader change or restart). */
    ALREADY_TAKEN;

    /** The name used in metrics, logs and status answers. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public TakeOutcome {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(detail, "detail");
  }

  public static TakeOutcome taken(long id) {
    return new TakeOutcome(Kind.TAKEN, id, "");
  }

  public static TakeOutcome alreadyTaken(long id) {
    return new TakeOutcome(Kind.ALREADY_TAKEN, id, "");
  }

  public static TakeOutcome superseded(long highestId) {
    return new TakeOutcome(Kind.SUPERSEDED, highestId, "");
  }

  public static TakeOutcome failed(long id, String detail) {
    return new TakeOutcome(Kind.FAILED, id, detail);
  }
}
