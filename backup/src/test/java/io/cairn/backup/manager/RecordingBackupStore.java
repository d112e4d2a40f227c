package io.cairn.backup.manager;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.VerificationReport;
import io.cairn.backupapi.archive.ArchiveObjects;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The real filesystem store behind a wrapper that records every call into a shared event log, keeps
 * the backups given to {@code save}, and can hold calls at a gate (saves, or every call) until the
 * test opens it, fail the next listings or marks (a store that cannot be reached), or lose the
 * answer to a save that stays IN_PROGRESS in the store.
 */
final class RecordingBackupStore implements BackupStore {

  private final BackupStore delegate;
  private final Consumer<String> events;
  private final List<Backup> saved = new CopyOnWriteArrayList<>();
  private volatile CompletableFuture<Void> saveGate = CompletableFuture.completedFuture(null);
  private volatile CompletableFuture<Void> callGate = CompletableFuture.completedFuture(null);
  private final AtomicInteger listFailures = new AtomicInteger();
  private final AtomicInteger markFailures = new AtomicInteger();
  private final AtomicReference<Path> lostSaveStall = new AtomicReference<>();

  RecordingBackupStore(BackupStore delegate, Consumer<String> events) {
    this.delegate = delegate;
    this.events = events;
  }

  /** Holds every later save until the returned gate is completed. */
  CompletableFuture<Void> holdSaves() {
    CompletableFuture<Void> gate = new CompletableFuture<>();
    saveGate = gate;
    return gate;
  }

  /** Holds every later call (listing included) until the returned gate is completed. */
  CompletableFuture<Void> holdCalls() {
    CompletableFuture<Void> gate = new CompletableFuture<>();
    callGate = gate;
    return gate;
  }

  /** The next {@code count} calls to {@code list} fail, without reaching the store. */
  void failLists(int count) {
    listFailures.set(count);
  }

  /** The next {@code count} calls to {@code markFailed} fail, without reaching the store. */
  void failMarks(int count) {
    markFailures.set(count);
  }

  /**
   * The next save writes its backup IN_PROGRESS in the store and stalls there, reading the pipe
   * {@code stall} (its only file), while the caller's future fails: an answer lost on the way back.
   */
  void loseNextSaveAnswer(Path stall) {
    lostSaveStall.set(stall);
  }

  /** The backups handed to {@code save}, in order. */
  List<Backup> saved() {
    return saved;
  }

  BackupStore delegate() {
    return delegate;
  }

  @Override
  public CompletableFuture<BackupSaveResult> save(
      Backup backup, Optional<BackupIdentifier> previous) {
    events.accept("store.save " + backup.id().checkpointId());
    saved.add(backup);
    Path stall = lostSaveStall.getAndSet(null);
    if (stall != null) {
      delegate.save(
          Backup.builder(backup.id())
              .checkpointPosition(backup.descriptor().checkpointPosition())
              .numberOfPartitions(backup.descriptor().numberOfPartitions())
              .brokerVersion(backup.descriptor().brokerVersion())
              .stateDigest(backup.descriptor().stateDigest())
              .segments(NamedFileSet.of(new BackupFile("stalled.log", stall, 4)))
              .build());
      return CompletableFuture.failedFuture(
          new IOException("injected: the answer to the save was lost"));
    }
    CompletableFuture<Void> gate = callGate.thenCombine(saveGate, (a, b) -> null);
    return gate.thenCompose(ignored -> delegate.save(backup, previous))
        .whenComplete(
            (result, error) ->
                events.accept(
                    "store.saved "
                        + backup.id().checkpointId()
                        + (error == null ? "" : " failed")));
  }

  @Override
  public CompletableFuture<BackupStatus> getStatus(BackupIdentifier id) {
    events.accept("store.getStatus " + id.checkpointId());
    return callGate.thenCompose(ignored -> delegate.getStatus(id));
  }

  @Override
  public CompletableFuture<BackupPage> list(BackupIdentifierWildcard wildcard, PageRequest page) {
    events.accept("store.list " + wildcard);
    if (takeFailure(listFailures)) {
      return CompletableFuture.failedFuture(unreachable("list"));
    }
    return callGate.thenCompose(ignored -> delegate.list(wildcard, page));
  }

  @Override
  public CompletableFuture<Void> delete(BackupIdentifier id) {
    events.accept("store.delete " + id.checkpointId());
    return callGate.thenCompose(ignored -> delegate.delete(id));
  }

  @Override
  public CompletableFuture<BackupStatus> markFailed(BackupIdentifier id, String reason) {
    events.accept("store.markFailed " + id.checkpointId());
    if (takeFailure(markFailures)) {
      return CompletableFuture.failedFuture(unreachable("markFailed"));
    }
    return callGate.thenCompose(ignored -> delegate.markFailed(id, reason));
  }

  @Override
  public CompletableFuture<Backup> restore(
      BackupIdentifier id, Path targetDir, RestoreProgressListener listener) {
    return delegate.restore(id, targetDir, listener);
  }

  @Override
  public CompletableFuture<VerificationReport> verify(BackupIdentifier id) {
    return delegate.verify(id);
  }

  @Override
  public ArchiveObjects archive() {
    throw new UnsupportedOperationException("the recording store keeps no log archive");
  }

  @Override
  public void close() {
    delegate.close();
  }

  private static boolean takeFailure(AtomicInteger failures) {
    return failures.getAndUpdate(left -> left > 0 ? left - 1 : 0) > 0;
  }

  private static IOException unreachable(String call) {
    return new IOException("injected: the store could not be reached (" + call + ")");
  }
}
