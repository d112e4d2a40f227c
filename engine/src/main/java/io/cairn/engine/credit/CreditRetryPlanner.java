package io.cairn.engine.credit;

import io.cairn.engine.PendingCredit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides which pending credits to (re-)send: pure, so the same inputs always give the same plan.
 *
 * <p>Per pending credit, in transfer key order:
 *
 * <ul>
 *   <li><b>Unknown</b> (found in state, never sent by this leader — replayed at leader start, or
 *       its first send has not run yet): tracked as found at the current last written position. It
 *       may come from a batch that is not committed yet, and nothing derived from a batch leaves
 *       the partition before the batch is committed (DESIGN.md §5), so it is sent only once the
 *       commit position reaches that position.
 *   <li><b>Sent</b> {@code n} times: re-sent when {@code now >= lastSent + delay(n)}, with {@code
 *       delay(n) = min(interval * 2^(n-1), intervalMax)}.
 *   <li>At most {@code maxSendsPerScan} sends per plan; the rest wait for the next check.
 * </ul>
 *
 * Tracking of keys no longer pending (acknowledged or refunded) is dropped. The next scan is due at
 * the earliest re-send, at the next check while a credit waits for its commit or for send budget,
 * and never later than {@code now + interval}.
 */
public final class CreditRetryPlanner {

  /** A send the plan asks for. */
  public record Send(PendingCredit credit, boolean retry) {}

  /**
   * @param sends the credits to send now, in transfer key order
   * @param tracking the tracking to keep, for exactly the pending credits
   * @param nextScanMillis when the next scan is due; {@code <= now} means at the next check
   */
  public record Plan(List<Send> sends, Map<Long, CreditTracking> tracking, long nextScanMillis) {}

  private final long intervalMillis;
  private final long intervalMaxMillis;
  private final int maxSendsPerScan;

  public CreditRetryPlanner(Duration interval, Duration intervalMax, int maxSendsPerScan) {
    this.intervalMillis = interval.toMillis();
    this.intervalMaxMillis = intervalMax.toMillis();
    this.maxSendsPerScan = maxSendsPerScan;
  }

  /**
   * @param pending the pending credits in state, in transfer key order
   * @param tracking what this leader knows about sending them (not modified)
   * @param nowMillis the time of the scan
   * @param lastWrittenPosition the last position whose effects the state holds
   * @param commitPosition the log's commit position
   */
  public Plan plan(
      List<PendingCredit> pending,
      Map<Long, CreditTracking> tracking,
      long nowMillis,
      long lastWrittenPosition,
      long commitPosition) {
    List<Send> sends = new ArrayList<>();
    Map<Long, CreditTracking> next = new HashMap<>(Math.max(16, pending.size() * 2));
    long nextScan = nowMillis + intervalMillis;
    for (PendingCredit credit : pending) {
      long key = credit.transferKey();
      CreditTracking known = tracking.get(key);
      if (known == null) {
        known = CreditTracking.found(lastWrittenPosition);
      }
      boolean due;
      if (!known.isSent()) {
        due = known.committedAfterPosition() <= commitPosition;
      } else {
        long dueAt = known.lastSentMillis() + retryDelayMillis(known.attempts());
        due = nowMillis >= dueAt;
        if (!due) {
          nextScan = Math.min(nextScan, dueAt);
        }
      }
      if (due && sends.size() < maxSendsPerScan) {
        sends.add(new Send(credit, known.isSent()));
        known = known.isSent() ? known.resentAt(nowMillis) : CreditTracking.sentAt(nowMillis);
      } else if (due || !known.isSent()) {
        nextScan =
            nowMillis; // out of budget, or waiting for the commit: look again at the next check
      }
      next.put(key, known);
    }
    return new Plan(sends, next, nextScan);
  }

  /** The wait after the {@code attempts}-th send: {@code min(interval * 2^(attempts-1), max)}. */
  public long retryDelayMillis(int attempts) {
    int doublings = Math.max(0, Math.min(attempts - 1, 62));
    long delay =
        doublings >= Long.numberOfLeadingZeros(intervalMillis) - 1
            ? Long.MAX_VALUE
            : intervalMillis << doublings;
    return Math.min(delay, intervalMaxMillis);
  }
}
