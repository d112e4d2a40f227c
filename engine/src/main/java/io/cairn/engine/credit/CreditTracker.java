package io.cairn.engine.credit;

import java.util.HashMap;
import java.util.Map;

/**
 * The leader's in-memory {@link CreditTracking} per transfer key, shared by the first send (a side
 * effect of {@code TRANSFER CREATE}) and the retry loop. Used on the stream processor's thread
 * only. Bounded by the number of pending credits: every retry scan keeps only the keys still
 * pending.
 */
public final class CreditTracker {

  private Map<Long, CreditTracking> tracking = new HashMap<>();

  /** Records the first send of {@code transferKey} at {@code nowMillis}. */
  public void sent(long transferKey, long nowMillis) {
    tracking.put(transferKey, CreditTracking.sentAt(nowMillis));
  }

  /** The tracking of {@code transferKey}, or null. */
  public CreditTracking get(long transferKey) {
    return tracking.get(transferKey);
  }

  /** The current tracking (not a copy: do not keep it across calls). */
  Map<Long, CreditTracking> current() {
    return tracking;
  }

  /** Replaces the tracking with what a retry scan decided. */
  void replace(Map<Long, CreditTracking> next) {
    tracking = next;
  }

  public int size() {
    return tracking.size();
  }
}
