package io.cairn.backuptestkit;

import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.content.ContentCipher;
import io.cairn.backupapi.content.EncodedContent;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backupstore.FileTask;
import io.cairn.backupstore.ManifestChange;
import io.cairn.backupstore.ObjectLayer;
import io.cairn.backupstore.StoredFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * An {@link ObjectLayer} in front of another that fails the way object stores and networks do, as a
 * {@link FaultPlan} decides per call: the call fails before it reaches the store, the store does it
 * but the answer is lost, an upload stores only a prefix of the file before it fails, or a listing
 * answers what it answered before (listings that lag behind writes). Every fault is an {@link
 * IOException} whose message starts with {@code "Injected: "}; reads of content ({@code restore},
 * {@code verify}) are never faulted, so that what a test checks afterwards is what was stored.
 *
 * <p>A fault-free plan makes it the layer it wraps. For tests and simulations; thread-safe when the
 * plan is.
 */
public final class FaultyObjectLayer implements ObjectLayer {

  /** What happens to one call. */
  public enum Fault {
    NONE,
    /** Fails before the store sees it. */
    FAIL,
    /** The store does it; the caller gets a failure. */
    LOSE_ANSWER,
    /** An upload stores a prefix of the file and fails; other calls fail before the store. */
    PARTIAL_WRITE,
    /** A listing answers its previous answer to the same question, if there was one. */
    STALE_LISTING,
    /**
     * A broken store, for negative controls: an upload answers as done but keeps nothing under the
     * object's name (what it would have stored goes to a backup no manifest names). Other calls
     * fail before the store.
     */
    LOSE_WRITE
  }

  /** Chooses the fault of each call, by the name of the layer's method. */
  @FunctionalInterface
  public interface FaultPlan {
    Fault decide(String operation);

    FaultPlan NONE = operation -> Fault.NONE;

    /**
     * Each call fails in one of the ways a real store fails ({@link Fault#FAIL}, {@link
     * Fault#LOSE_ANSWER}, {@link Fault#PARTIAL_WRITE}, {@link Fault#STALE_LISTING}), each with
     * chance 1 in {@code oneIn}, as {@code dice} decide (seeded: the same dice, the same faults).
     */
    static FaultPlan storeFailures(SplittableRandom dice, int oneIn) {
      return operation -> {
        synchronized (dice) {
          return switch (dice.nextInt(oneIn)) {
            case 0 -> Fault.FAIL;
            case 1 -> Fault.LOSE_ANSWER;
            case 2 -> Fault.PARTIAL_WRITE;
            case 3 -> Fault.STALE_LISTING;
            default -> Fault.NONE;
          };
        }
      };
    }
  }

  private final ObjectLayer layer;
  private final Map<List<Object>, BackupPage> listed = new HashMap<>();
  private final AtomicInteger injected = new AtomicInteger();
  private volatile FaultPlan plan = FaultPlan.NONE;
  private volatile boolean overwritesArchiveObjects;

  public FaultyObjectLayer(ObjectLayer layer) {
    this.layer = layer;
  }

  /** Faults from now on as {@code value} decides. */
  public void plan(FaultPlan value) {
    plan = value;
  }

  /**
   * A broken store, for negative controls: from now on an archive object written where one exists
   * replaces it and is answered as created, as a store without conditional writes would, so two
   * writers of one key both believe they created it.
   */
  public void overwriteArchiveObjects() {
    overwritesArchiveObjects = true;
  }

  /** How many faults were injected so far. */
  public int faultsInjected() {
    return injected.get();
  }

  @FunctionalInterface
  private interface Call<T> {
    T run() throws Exception;
  }

  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }

  private void run(String operation, Step step) throws Exception {
    call(
        operation,
        () -> {
          step.run();
          return null;
        });
  }

  private <T> T call(String operation, Call<T> call) throws Exception {
    return call(operation, plan.decide(operation), call);
  }

  private <T> T call(String operation, Fault fault, Call<T> call) throws Exception {
    switch (fault) {
      case NONE, STALE_LISTING -> {
        return call.run();
      }
      case FAIL, PARTIAL_WRITE, LOSE_WRITE -> {
        injected.incrementAndGet();
        throw new IOException("Injected: " + operation + " failed before reaching the store");
      }
      case LOSE_ANSWER -> {
        call.run();
        injected.incrementAndGet();
        throw new IOException("Injected: the answer to " + operation + " was lost");
      }
    }
    throw new AssertionError(fault);
  }

  @Override
  public String locate(BackupIdentifier id, FileSetKind kind, String name) {
    return layer.locate(id, kind, name);
  }

  @Override
  public String describe(Exception failure) {
    return layer.describe(failure);
  }

  @Override
  public Optional<Manifest> readManifest(BackupIdentifier id) throws Exception {
    return call("readManifest", () -> layer.readManifest(id));
  }

  @Override
  public <R> R changeManifest(
      BackupIdentifier id,
      Function<Optional<Manifest>, ManifestChange<R>> decide,
      boolean markingFailure)
      throws Exception {
    return call("changeManifest", () -> layer.changeManifest(id, decide, markingFailure));
  }

  @Override
  public BackupPage list(BackupIdentifierWildcard wildcard, PageRequest page) throws Exception {
    List<Object> question = List.of(wildcard, page);
    if (plan.decide("list") == Fault.STALE_LISTING) {
      synchronized (listed) {
        BackupPage before = listed.get(question);
        if (before != null) {
          injected.incrementAndGet();
          return before;
        }
      }
    }
    BackupPage answer = call("list", () -> layer.list(wildcard, page));
    synchronized (listed) {
      listed.put(question, answer);
    }
    return answer;
  }

  @Override
  public int delete(BackupIdentifier id, Consumer<Optional<Manifest>> check) throws Exception {
    return call("delete", () -> layer.delete(id, check));
  }

  @Override
  public void prepare(BackupIdentifier id) throws Exception {
    run("prepare", () -> layer.prepare(id));
  }

  @Override
  public EncodedContent put(
      BackupIdentifier id, FileSetKind kind, BackupFile file, ContentCipher cipher)
      throws Exception {
    Fault fault = plan.decide("put");
    if (fault == Fault.PARTIAL_WRITE && file.lengthBytes() > 0) {
      layer.put(id, kind, new BackupFile(file.name(), file.path(), file.lengthBytes() / 2), cipher);
      injected.incrementAndGet();
      throw new IOException(
          "Injected: the upload of " + locate(id, kind, file.name()) + " broke off half way");
    }
    if (fault == Fault.LOSE_WRITE) {
      injected.incrementAndGet();
      BackupIdentifier nowhere =
          new BackupIdentifier(id.nodeId(), id.partitionId(), Long.MAX_VALUE - id.checkpointId());
      return layer.put(nowhere, kind, file, cipher);
    }
    return call("put", fault, () -> layer.put(id, kind, file, cipher));
  }

  @Override
  public boolean reuse(
      BackupIdentifier from, BackupIdentifier to, FileSetKind kind, ManifestFile entry)
      throws Exception {
    return call("reuse", () -> layer.reuse(from, to, kind, entry));
  }

  @Override
  public void seal(BackupIdentifier id, List<StoredFile> stored) throws Exception {
    run("seal", () -> layer.seal(id, stored));
  }

  @Override
  public void cleanUp(BackupIdentifier id) throws Exception {
    layer.cleanUp(id);
  }

  @Override
  public Optional<FileProblem> restore(
      BackupIdentifier id,
      FileSetKind kind,
      ManifestFile entry,
      ContentCipher cipher,
      FileChannel target,
      LongConsumer progress)
      throws IOException {
    return layer.restore(id, kind, entry, cipher, target, progress);
  }

  @Override
  public Optional<FileProblem> verify(
      BackupIdentifier id, FileSetKind kind, ManifestFile entry, ContentCipher cipher)
      throws IOException {
    return layer.verify(id, kind, entry, cipher);
  }

  @Override
  public <T> List<T> runAll(List<FileTask<T>> tasks) throws Exception {
    return layer.runAll(tasks);
  }

  @Override
  public String locateArchive(String key) {
    return layer.locateArchive(key);
  }

  @Override
  public boolean createArchiveObject(String key, byte[] content) throws Exception {
    return call(
        "createArchiveObject",
        () -> {
          if (overwritesArchiveObjects) {
            layer.deleteArchiveObject(key);
          }
          return layer.createArchiveObject(key, content);
        });
  }

  @Override
  public Optional<byte[]> readArchiveObject(String key) throws Exception {
    return call("readArchiveObject", () -> layer.readArchiveObject(key));
  }

  @Override
  public List<String> listArchiveObjects(String directory, String startAfter, int limit)
      throws Exception {
    return call("listArchiveObjects", () -> layer.listArchiveObjects(directory, startAfter, limit));
  }

  @Override
  public void deleteArchiveObject(String key) throws Exception {
    run("deleteArchiveObject", () -> layer.deleteArchiveObject(key));
  }
}
