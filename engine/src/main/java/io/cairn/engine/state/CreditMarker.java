package io.cairn.engine.state;

/**
 * What the target partition decided for a transfer key, kept so that every later {@code CREDIT
 * APPLY} of the key (a duplicate or a re-send) gets the same answer and the credit takes effect at
 * most once.
 *
 * @param outcome applied (the account was credited) or refused (no such account; the source is
 *     refunded)
 * @param amount the credit's amount
 */
public record CreditMarker(Outcome outcome, long amount) {

  /** The target's decision. */
  public enum Outcome {
    /** {@code CREDIT APPLIED}: the target account was credited; duplicates are acknowledged. */
    APPLIED,
    /** {@code CREDIT REFUSED}: the target account does not exist; duplicates are refunded. */
    REFUSED
  }

  public boolean isApplied() {
    return outcome == Outcome.APPLIED;
  }
}
