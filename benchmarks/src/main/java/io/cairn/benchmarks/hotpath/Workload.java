package io.cairn.benchmarks.hotpath;

import java.util.concurrent.CompletableFuture;

/**
 * One kind of call a driver sends: a Cairn deposit or transfer, an etcd put. Implementations are
 * thread-safe and never retry; a call that fails completes its future exceptionally.
 */
interface Workload {

  /** The side it loads: {@code cairn} or {@code etcd}. */
  String side();

  /** What one call is, e.g. {@code deposit}. */
  String name();

  /**
   * Sends call number {@code sequence} (numbers go up from 0 within a step; implementations pick
   * accounts, keys and members from it).
   */
  CompletableFuture<?> send(long sequence);
}
