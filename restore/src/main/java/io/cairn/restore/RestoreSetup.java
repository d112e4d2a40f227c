package io.cairn.restore;

import io.cairn.backupapi.BackupStore;
import io.cairn.restore.catalog.BackupCatalog;
import io.cairn.restore.catalog.RestorePoints;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a restore ({@link BackupRestorer}) or a verification ({@link BackupVerifier}) runs with: the
 * store, the settings, the clock, the listener, the meters, the catalog of the store's backups and
 * where blocking work runs. Built by the {@link Builder} both hand out.
 */
public final class RestoreSetup {

  private static final Logger LOG = LoggerFactory.getLogger(RestoreSetup.class);

  private final BackupStore store;
  private final RestoreConfig config;
  private final Clock clock;
  private final RestoreListener listener;
  private final RestoreMetrics metrics;
  private final Optional<Executor> executor;
  private final BackupCatalog catalog;
  private final RestorePoints points;

  private RestoreSetup(Builder<?> builder) {
    store = builder.store;
    config = builder.config;
    clock = builder.clock;
    listener = builder.listener;
    metrics = new RestoreMetrics(builder.registry);
    executor = Optional.ofNullable(builder.executor);
    catalog = new BackupCatalog(store, config.storeRequestTimeout());
    points = new RestorePoints(store, config.storeRequestTimeout(), clock);
  }

  BackupStore store() {
    return store;
  }

  RestoreConfig config() {
    return config;
  }

  Clock clock() {
    return clock;
  }

  RestoreListener listener() {
    return listener;
  }

  RestoreMetrics metrics() {
    return metrics;
  }

  BackupCatalog catalog() {
    return catalog;
  }

  RestorePoints points() {
    return points;
  }

  /** Tells the listener the plan; a failing listener is logged, never fails the run. */
  void notifyPlan(RestorePlan plan, String run) {
    try {
      listener.onPlan(plan);
    } catch (RuntimeException e) {
      LOG.warn("A {} listener failed on the plan; ignored", run, e);
    }
  }

  /**
   * Runs {@code work} on the given executor, or on a pool of named daemon threads made for this run
   * ({@link RestoreConfig#partitionConcurrency()} at most, no more than {@code partitions}).
   */
  <T> T withExecutor(int partitions, Function<Executor, T> work) {
    if (executor.isPresent()) {
      return work.apply(executor.get());
    }
    AtomicInteger counter = new AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.max(1, Math.min(partitions, config.partitionConcurrency())),
            runnable -> {
              Thread thread = new Thread(runnable, "cairn-restore-" + counter.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    try {
      return work.apply(pool);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Collects what a restorer or a verifier needs; {@link #store} and {@link #meterRegistry} are
   * required.
   *
   * @param <T> what it builds
   */
  public static final class Builder<T> {
    private final String owner;
    private final Function<RestoreSetup, T> factory;
    private BackupStore store;
    private RestoreConfig config = RestoreConfig.defaults();
    private Clock clock = Clock.system();
    private RestoreListener listener = RestoreListener.NOOP;
    private MeterRegistry registry;
    private Executor executor;

    Builder(String owner, Function<RestoreSetup, T> factory) {
      this.owner = owner;
      this.factory = factory;
    }

    /** The store holding the backups; never closed here. */
    public Builder<T> store(BackupStore value) {
      store = value;
      return this;
    }

    /** {@link RestoreConfig#defaults()} by default. */
    public Builder<T> config(RestoreConfig value) {
      config = value;
      return this;
    }

    /** Measures rates and durations; the system clock by default. */
    public Builder<T> clock(Clock value) {
      clock = value;
      return this;
    }

    /** {@link RestoreListener#NOOP} by default. */
    public Builder<T> listener(RestoreListener value) {
      listener = value;
      return this;
    }

    /** Where {@code cairn.restore.*} meters go; required. */
    public Builder<T> meterRegistry(MeterRegistry value) {
      registry = value;
      return this;
    }

    /**
     * Runs the partitions' blocking work (installation; waiting for downloads), at most {@link
     * RestoreConfig#partitionConcurrency()} tasks at once. By default each run makes a pool of that
     * many named daemon threads and stops it at the end.
     */
    public Builder<T> executor(Executor value) {
      executor = value;
      return this;
    }

    /**
     * @throws IllegalArgumentException naming a missing setting
     */
    public T build() {
      require(store, "store");
      require(config, "config");
      require(clock, "clock");
      require(listener, "listener");
      require(registry, "meterRegistry");
      return factory.apply(new RestoreSetup(this));
    }

    private void require(Object value, String name) {
      if (value == null) {
        throw new IllegalArgumentException(
            "Expected " + name + " to be set, but it is missing (" + owner + ")");
      }
    }
  }
}
