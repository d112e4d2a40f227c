package io.cairn.engine.credit;

import io.cairn.engine.LedgerMetrics;
import io.cairn.engine.PendingCredit;
import io.cairn.engine.state.LedgerStore;
import io.cairn.logstreams.LogStream;
import io.cairn.scheduler.Cancellable;
import io.cairn.scheduler.Clock;
import io.cairn.streamprocessor.StreamProcessor;
import io.cairn.streamprocessor.StreamProcessorPhase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shell around {@link CreditRetryPlanner} on a leader: a timer on the stream processor's actor
 * (so it reads the state on the state's own thread, between two commands) checks every {@code
 * checkInterval}; when a scan is due and the processor is {@link StreamProcessorPhase#PROCESSING
 * processing}, it reads the pending credits, the clock and the positions, asks the planner and
 * sends. The first scan after processing starts is due at once, so a new leader re-sends every
 * pending credit (once its replayed state is committed). It stops by itself when the processor
 * leaves processing for good (not leader, failed, closed).
 */
public final class CreditRetryLoop implements Cancellable {

  private static final Logger LOG = LoggerFactory.getLogger(CreditRetryLoop.class);

  private final StreamProcessor processor;
  private final LogStream logStream;
  private final LedgerStore store;
  private final CreditTracker tracker;
  private final CreditRetryPlanner planner;
  private final CreditSender sender;
  private final LedgerMetrics metrics;
  private final Clock clock;
  private final Cancellable timer;

  // the processor's actor thread only
  private long nextScanMillis = Long.MIN_VALUE;
  private boolean announced;

  private CreditRetryLoop(
      StreamProcessor processor,
      LogStream logStream,
      LedgerStore store,
      CreditTracker tracker,
      CreditRetryPlanner planner,
      CreditSender sender,
      LedgerMetrics metrics,
      Clock clock,
      Duration checkInterval) {
    this.processor = processor;
    this.logStream = logStream;
    this.store = store;
    this.tracker = tracker;
    this.planner = planner;
    this.sender = sender;
    this.metrics = metrics;
    this.clock = clock;
    this.timer = processor.scheduleAtFixedRate(Duration.ZERO, checkInterval, this::check);
  }

  /**
   * Starts checking on {@code processor}'s actor; call it after the processor was started.
   *
   * @throws IllegalStateException if the processor was not started
   */
  public static CreditRetryLoop start(
      StreamProcessor processor,
      LogStream logStream,
      LedgerStore store,
      CreditTracker tracker,
      CreditRetryPlanner planner,
      CreditSender sender,
      LedgerMetrics metrics,
      Clock clock,
      Duration checkInterval) {
    return new CreditRetryLoop(
        processor, logStream, store, tracker, planner, sender, metrics, clock, checkInterval);
  }

  @Override
  public void cancel() {
    timer.cancel();
  }

  @Override
  public boolean isCancelled() {
    return timer.isCancelled();
  }

  /** One check; on the processor's actor thread. */
  private void check() {
    StreamProcessorPhase phase = processor.phase();
    if (phase == StreamProcessorPhase.STARTING || phase == StreamProcessorPhase.REPLAYING) {
      return;
    }
    if (phase != StreamProcessorPhase.PROCESSING) {
      timer.cancel();
      return;
    }
    long now = clock.millis();
    if (now < nextScanMillis) {
      return;
    }
    List<PendingCredit> pending = new ArrayList<>();
    store.forEachPendingCredit(pending::add);
    if (!announced) {
      announced = true;
      LOG.debug(
          "Partition {} leader re-sends {} pending credits once committed",
          processor.partitionId(),
          pending.size());
    }
    CreditRetryPlanner.Plan plan =
        planner.plan(
            pending,
            tracker.current(),
            now,
            processor.lastWrittenPosition(),
            logStream.commitPosition());
    tracker.replace(plan.tracking());
    metrics.pendingCredits(pending.size());
    for (CreditRetryPlanner.Send send : plan.sends()) {
      sender.sendApply(send.credit(), send.retry());
    }
    nextScanMillis = plan.nextScanMillis();
  }
}
