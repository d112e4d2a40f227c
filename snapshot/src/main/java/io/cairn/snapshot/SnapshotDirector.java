package io.cairn.snapshot;

import io.cairn.scheduler.Actor;
import io.cairn.scheduler.Cancellable;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a partition's snapshots: every {@link SnapshotConfig#snapshotInterval()} and on demand,
 * skipping when nothing was processed since the newest snapshot.
 *
 * <p>It runs inside its owner actor — the one that owns the state — so reading the positions, the
 * digest and writing the RocksDB checkpoint happen in one task on the state's thread. Then it waits
 * until the log is committed up to the snapshot's {@link
 * SnapshotPositions#requiredCommitPosition()} (call {@link #commitPositionUpdated()} when the
 * commit position moves; a snapshot still waiting one interval later is dropped), and persists it
 * (checksums, fsync, rename) on the I/O executor, off the owner's thread. One snapshot at a time: a
 * request while one is in progress gets that one.
 *
 * <p>Meters: {@value SnapshotMetrics#ATTEMPTS} with {@code result} = persisted | skipped | failed.
 */
public final class SnapshotDirector {

  private static final Logger LOG = LoggerFactory.getLogger(SnapshotDirector.class);

  private final Actor owner;
  private final SnapshotStore store;
  private final SnapshotSource source;
  private final SnapshotConfig config;
  private final String brokerVersion;
  private final Clock clock;
  private final Executor ioExecutor;
  private final Counter persisted;
  private final Counter skipped;
  private final Counter failed;

  // Owner-thread state.
  private Cancellable timer;
  private TransientSnapshot pending;
  private long pendingSinceMillis;
  private long pendingRequiredCommit;
  private boolean persisting;
  private CompletableFuture<Optional<PersistedSnapshot>> inProgress;
  private boolean closed;

  private SnapshotDirector(Builder builder) {
    owner = Objects.requireNonNull(builder.owner, "owner");
    store = Objects.requireNonNull(builder.store, "store");
    source = Objects.requireNonNull(builder.source, "source");
    config = Objects.requireNonNull(builder.config, "config");
    brokerVersion = Objects.requireNonNull(builder.brokerVersion, "brokerVersion");
    clock = Objects.requireNonNull(builder.clock, "clock");
    ioExecutor = Objects.requireNonNull(builder.ioExecutor, "ioExecutor");
    MeterRegistry registry = Objects.requireNonNull(builder.registry, "registry");
    persisted = SnapshotMetrics.attempts(registry, builder.tags, "persisted");
    skipped = SnapshotMetrics.attempts(registry, builder.tags, "skipped");
    failed = SnapshotMetrics.attempts(registry, builder.tags, "failed");
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Starts the periodic snapshots. Call on the owner's thread, e.g. from its {@code onStart}. */
  public void start() {
    if (timer == null && !closed) {
      timer =
          owner.scheduleAtFixedRate(
              config.snapshotInterval(), config.snapshotInterval(), this::onInterval);
    }
  }

  /**
   * Takes a snapshot now, from any thread.
   *
   * @return completes on the owner's thread with the persisted snapshot, empty if nothing was
   *     processed since the newest snapshot; fails if taking it failed. If the owner closes while
   *     the snapshot persists, it completes on the I/O executor's thread instead, so that it always
   *     completes.
   */
  public CompletableFuture<Optional<PersistedSnapshot>> takeSnapshot() {
    return owner.call(this::take).thenCompose(future -> future);
  }

  /** The commit position moved; persists a snapshot waiting for it. Call on the owner's thread. */
  public void commitPositionUpdated() {
    if (pending != null && !persisting) {
      persistIfCommitted();
    }
  }

  /** Stops the periodic snapshots and drops a snapshot not yet persisting. Owner's thread. */
  public void close() {
    closed = true;
    if (timer != null) {
      timer.cancel();
    }
    if (pending != null && !persisting) {
      pending.abort();
      finish(null, new IllegalStateException("Expected a running snapshot director, but closed"));
    }
  }

  private void onInterval() {
    if (pending != null
        && !persisting
        && clock.millis() - pendingSinceMillis >= config.snapshotInterval().toMillis()) {
      LOG.warn(
          "Dropping snapshot {}: the log was not committed up to {} within {}",
          pending.id(),
          pendingRequiredCommit,
          config.snapshotInterval());
      pending.abort();
      finish(null, new SnapshotException("Snapshot " + pending.id() + " was never committed"));
    }
    take();
  }

  private CompletableFuture<Optional<PersistedSnapshot>> take() {
    if (inProgress != null) {
      return inProgress;
    }
    if (closed) {
      return CompletableFuture.failedFuture(
          new IllegalStateException("Expected a running snapshot director, but it was closed"));
    }
    Optional<SnapshotPositions> positions = source.positions();
    Optional<PersistedSnapshot> latest = store.latestSnapshot();
    if (positions.isEmpty()
        || (latest.isPresent()
            && positions.get().processedPosition()
                <= latest.get().metadata().processedPosition())) {
      skipped.increment();
      LOG.debug("No snapshot: nothing processed since {}", latest.map(PersistedSnapshot::id));
      return CompletableFuture.completedFuture(Optional.empty());
    }
    SnapshotPositions at = positions.get();
    inProgress = new CompletableFuture<>();
    CompletableFuture<Optional<PersistedSnapshot>> result = inProgress;
    try {
      SnapshotMetadata metadata =
          new SnapshotMetadata(
              at.index(),
              at.term(),
              at.processedPosition(),
              at.exportedPosition(),
              at.lastWrittenPosition(),
              brokerVersion,
              clock.millis(),
              source.stateDigest().toHex());
      pending = store.newTransientSnapshot(metadata);
      pendingSinceMillis = clock.millis();
      pendingRequiredCommit = at.requiredCommitPosition();
      pending.writeState(source::writeState);
    } catch (StaleSnapshotException e) {
      LOG.debug("No snapshot: {}", e.getMessage());
      pending = null;
      skipped.increment();
      finish(Optional.empty(), null);
      return result;
    } catch (RuntimeException e) {
      // SnapshotException from the store or the state writer, or a store closed under us
      LOG.warn("Taking a snapshot failed; the next interval tries again: {}", e.toString());
      if (pending != null) {
        pending.abort();
      }
      finish(null, e);
      return result;
    }
    persistIfCommitted();
    return result;
  }

  private void persistIfCommitted() {
    if (source.committedPosition() < pendingRequiredCommit) {
      LOG.debug("Snapshot {} waits for commit position {}", pending.id(), pendingRequiredCommit);
      return;
    }
    persisting = true;
    TransientSnapshot snapshot = pending;
    CompletableFuture<Optional<PersistedSnapshot>> result = inProgress;
    try {
      ioExecutor.execute(
          () -> {
            try {
              PersistedSnapshot done = snapshot.persist();
              report(result, Optional.of(done), null);
            } catch (StaleSnapshotException e) {
              report(result, Optional.empty(), null);
            } catch (RuntimeException e) {
              // the executor task's boundary: report every failure to the owner
              report(result, null, e);
            }
          });
    } catch (RejectedExecutionException e) {
      snapshot.abort();
      finish(null, e);
    }
  }

  /**
   * I/O thread: hands the outcome to the owner. An owner that closed meanwhile (a leader change, a
   * shutdown) refuses the task and {@link #close()} left the future to this persist, so complete it
   * here: otherwise the caller of {@link #takeSnapshot()} would wait forever.
   */
  private void report(
      CompletableFuture<Optional<PersistedSnapshot>> result,
      Optional<PersistedSnapshot> outcome,
      Throwable failure) {
    owner
        .submit(() -> finish(outcome, failure))
        .whenComplete(
            (ignored, refused) -> {
              if (refused != null && !result.isDone()) {
                complete(result, outcome, failure);
              }
            });
  }

  /** Ends the snapshot in progress: a result (present: persisted, empty: skipped) or a failure. */
  private void finish(Optional<PersistedSnapshot> outcome, Throwable failure) {
    CompletableFuture<Optional<PersistedSnapshot>> result = inProgress;
    pending = null;
    persisting = false;
    inProgress = null;
    complete(result, outcome, failure);
  }

  private void complete(
      CompletableFuture<Optional<PersistedSnapshot>> result,
      Optional<PersistedSnapshot> outcome,
      Throwable failure) {
    if (failure != null) {
      failed.increment();
      LOG.warn("Snapshot failed: {}", failure.getMessage());
      result.completeExceptionally(failure);
    } else {
      (outcome.isPresent() ? persisted : skipped).increment();
      result.complete(outcome);
    }
  }

  /** Builds a director; every setter is required except {@link #meterTags}. */
  public static final class Builder {
    private Actor owner;
    private SnapshotStore store;
    private SnapshotSource source;
    private SnapshotConfig config;
    private String brokerVersion;
    private Clock clock;
    private Executor ioExecutor;
    private MeterRegistry registry;
    private Iterable<Tag> tags = Tags.empty();

    private Builder() {}

    /** The actor that owns the state; the director runs in its tasks and timers. */
    public Builder owner(Actor value) {
      owner = value;
      return this;
    }

    public Builder store(SnapshotStore value) {
      store = value;
      return this;
    }

    public Builder source(SnapshotSource value) {
      source = value;
      return this;
    }

    public Builder config(SnapshotConfig value) {
      config = value;
      return this;
    }

    /** Recorded in every snapshot's metadata. */
    public Builder brokerVersion(String value) {
      brokerVersion = value;
      return this;
    }

    /** Gives the snapshots' creation time and the commit-wait deadline. */
    public Builder clock(Clock value) {
      clock = value;
      return this;
    }

    /** Runs {@link TransientSnapshot#persist()} (blocking I/O); a bounded executor. */
    public Builder ioExecutor(Executor value) {
      ioExecutor = value;
      return this;
    }

    public Builder meterRegistry(MeterRegistry value) {
      registry = value;
      return this;
    }

    public Builder meterTags(Iterable<Tag> value) {
      tags = value;
      return this;
    }

    public SnapshotDirector build() {
      return new SnapshotDirector(this);
    }
  }
}
