package io.cairn.backuptestkit;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupInProgressException;
import io.cairn.backupapi.BackupMarkedFailedException;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.BackupStoreException;
import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.VerificationReport;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupapi.content.ContentDecoder;
import io.cairn.backupapi.content.ContentEncoder;
import io.cairn.backupapi.content.EncodedContent;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestCodec;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backupstore.BackupStoreSkeleton;
import io.cairn.backupstore.ContentProblems;
import io.cairn.backupstore.ManifestRules;
import io.cairn.backupstore.PageTokens;
import io.cairn.backupstore.RestoreTarget;
import io.cairn.backupstore.SaveTally;
import io.cairn.backupstore.SavesInFlight;
import io.cairn.backupstore.StoreOperations;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * A {@link BackupStore} in memory, for tests and simulations: everything a store does comes from
 * {@code backup-store}; this class adds only where the bytes are — a map of manifests (as their
 * encoded JSON, so a test can tamper with them) and a map of encoded objects. It passes the whole
 * {@link BackupStoreTestKit}. One lock makes every manifest change atomic; a copy of the previous
 * backup's object stands for reuse. Objects are keyed {@code <id>/<set>/<name>}.
 */
public final class InMemoryBackupStore extends BackupStoreSkeleton {

  private static final ManifestCodec CODEC = new ManifestCodec();
  private static final PageTokens PAGE_TOKENS = new PageTokens("mem1:");

  /**
   * The bytes of one in-memory store, shared by every store opened on it (as a directory or a
   * bucket is). Tests may read and change them to corrupt a backup.
   */
  public static final class Storage {
    /** Encoded manifests by backup, in listing order; guarded by itself. */
    public final TreeMap<BackupIdentifier, byte[]> manifests = new TreeMap<>();

    /** Encoded objects by {@link #key}; reuse stores the same array under a second key. */
    public final Map<String, byte[]> objects = new ConcurrentHashMap<>();
  }

  private final TreeMap<BackupIdentifier, byte[]> manifests;
  private final Map<String, byte[]> objects;

  private final CompressionPolicy compression;
  private final Clock clock;
  private final SavesInFlight savesInFlight = new SavesInFlight();

  public InMemoryBackupStore(
      Storage storage, CompressionPolicy compression, Clock clock, Executor executor) {
    super(
        new StoreOperations("memory", new SimpleMeterRegistry(), "cairn.backupmemory.operations"),
        executor,
        executor);
    this.manifests = storage.manifests;
    this.objects = storage.objects;
    this.compression = compression;
    this.clock = clock;
  }

  /** Where the object of a file is kept in {@link Storage#objects}. */
  public static String key(BackupIdentifier id, FileSetKind kind, String name) {
    return id + "/" + kind.directoryName() + "/" + name;
  }

  @Override
  protected Optional<Manifest> readManifest(BackupIdentifier id) {
    return read(id);
  }

  @Override
  protected void deleteNow(BackupIdentifier id) {
    change(
        id,
        current -> {
          savesInFlight.checkNotSaving(id);
          if (current.isPresent() && current.get().status() == BackupStatusCode.IN_PROGRESS) {
            throw new BackupInProgressException(id, "its manifest is IN_PROGRESS");
          }
          objects.keySet().removeIf(k -> k.startsWith(id + "/"));
          manifests.remove(id);
          return null;
        },
        true);
  }

  @Override
  protected BackupStatus markFailedNow(BackupIdentifier id, String reason) {
    return change(
        id,
        current -> {
          Optional<Manifest> failed =
              ManifestRules.markFailed(id, current, reason, clock.instant());
          failed.ifPresent(this::write);
          return failed.or(() -> current).orElseThrow().toStatus();
        },
        false);
  }

  @Override
  protected Backup restoreNow(BackupIdentifier id, Path targetDir, RestoreProgressListener listener)
      throws IOException {
    RestoreTarget target = RestoreTarget.prepare(readCompleted(id), targetDir, listener);
    try {
      for (RestoreTarget.Placement placement : target.inManifestOrder()) {
        target.restoreFile(
            placement,
            (p, channel, progress) ->
                check(id, p.kind(), p.entry(), Channels.newOutputStream(channel), progress));
      }
      return target.finish();
    } catch (IOException | RuntimeException e) {
      target.undo();
      throw e;
    }
  }

  @Override
  protected VerificationReport verifyNow(BackupIdentifier id) throws IOException {
    Manifest manifest = readCompleted(id);
    List<FileProblem> problems = new ArrayList<>();
    for (FileSetKind kind : FileSetKind.values()) {
      for (ManifestFile entry : manifest.files(kind)) {
        check(id, kind, entry, null, bytes -> {}).ifPresent(problems::add);
      }
    }
    return ContentProblems.report(
        manifest, manifest.descriptor().orElseThrow().fileCount(), problems);
  }

  @Override
  protected void released() {}

  @Override
  protected BackupSaveResult saveNow(Backup backup, Optional<BackupIdentifier> previous)
      throws IOException {
    BackupIdentifier id = backup.id();
    change(
        id,
        current -> {
          ManifestRules.checkAbsent(id, current);
          write(Manifest.inProgress(backup.descriptor(), clock.instant()));
          savesInFlight.started(id);
          return null;
        },
        false);
    try {
      Optional<Manifest> reusable = ManifestRules.reusable(previous, this::read);
      var tally = new SaveTally();
      Map<FileSetKind, List<ManifestFile>> files = new EnumMap<>(FileSetKind.class);
      for (FileSetKind kind : FileSetKind.values()) {
        files.put(kind, new ArrayList<>());
        Map<String, ManifestFile> candidates = ManifestRules.filesByName(reusable, kind);
        for (BackupFile file : backup.files(kind).files()) {
          Optional<ManifestFile> same =
              Optional.ofNullable(candidates.get(file.name()))
                  .filter(e -> e.sizeBytes() == file.lengthBytes() && crc(file) == e.crc32c());
          ManifestFile entry =
              same.isPresent()
                  ? reuse(reusable.get().id(), id, kind, same.get())
                  : copy(id, kind, file);
          tally.add(entry, same.isPresent());
          files.get(kind).add(entry);
        }
      }
      Manifest completed =
          change(
              id,
              current -> write(ManifestRules.complete(id, current, files, clock.instant())),
              false);
      tally.logCompleted(id);
      return tally.result(completed);
    } catch (IOException | RuntimeException e) {
      if (!(e instanceof BackupMarkedFailedException)) {
        String reason = e instanceof BackupStoreException ? e.getMessage() : e.toString();
        change(
            id,
            current ->
                current
                    .filter(m -> m.status() == BackupStatusCode.IN_PROGRESS)
                    .map(m -> write(m.fail(reason, clock.instant()))),
            false);
      }
      throw e;
    } finally {
      savesInFlight.ended(id);
    }
  }

  private ManifestFile copy(BackupIdentifier id, FileSetKind kind, BackupFile file)
      throws IOException {
    var out = new ByteArrayOutputStream();
    EncodedContent encoded;
    try {
      encoded = ContentEncoder.encode(file.path(), file.lengthBytes(), compression, out);
    } catch (IOException e) {
      throw new BackupStoreException(
          "Expected to store "
              + kind.directoryName()
              + " file '"
              + file.name()
              + "' of backup "
              + id
              + " from "
              + file.path()
              + ", but "
              + e,
          e);
    }
    objects.put(key(id, kind, file.name()), out.toByteArray());
    return new ManifestFile(
        file.name(),
        encoded.sizeBytes(),
        encoded.crc32c(),
        encoded.storedSizeBytes(),
        encoded.compression());
  }

  private ManifestFile reuse(
      BackupIdentifier from, BackupIdentifier to, FileSetKind kind, ManifestFile entry) {
    objects.put(key(to, kind, entry.name()), objects.get(key(from, kind, entry.name())));
    return entry;
  }

  private static long crc(BackupFile file) {
    try {
      return ContentEncoder.crc32cOfPrefix(file.path(), file.lengthBytes());
    } catch (IOException e) {
      return -1; // cannot match any CRC32C: the file is copied, and the copy reports the error
    }
  }

  private Optional<FileProblem> check(
      BackupIdentifier id,
      FileSetKind kind,
      ManifestFile entry,
      OutputStream sink,
      java.util.function.LongConsumer progress) {
    String key = key(id, kind, entry.name());
    var problems = new ContentProblems(kind, entry, "memory:" + key);
    byte[] stored = objects.get(key);
    if (stored == null) {
      return problems.missing();
    }
    Optional<FileProblem> sized = problems.checkStoredSize(stored.length);
    if (sized.isPresent()) {
      return sized;
    }
    try {
      return problems.checkDecoded(
          stored.length,
          ContentDecoder.decode(
              new ByteArrayInputStream(stored),
              entry.compression(),
              ContentProblems.guard(sink),
              entry.sizeBytes(),
              progress));
    } catch (IOException e) {
      return problems.undecodable(stored.length, e);
    }
  }

  @Override
  protected BackupPage listNow(BackupIdentifierWildcard wildcard, PageRequest page) {
    Optional<BackupIdentifier> after = page.token().map(PAGE_TOKENS::parse);
    List<BackupStatus> statuses = new ArrayList<>();
    synchronized (manifests) {
      for (BackupIdentifier id :
          after.map(a -> manifests.tailMap(a, false)).orElse(manifests).keySet()) {
        if (!wildcard.matches(id)) {
          continue;
        }
        if (statuses.size() == page.size()) {
          return new BackupPage(
              statuses, Optional.of(PAGE_TOKENS.token(statuses.get(statuses.size() - 1).id())));
        }
        try {
          statuses.add(read(id).orElseThrow().toStatus());
        } catch (ManifestException e) {
          statuses.add(BackupStatus.unreadableManifest(id, e, Instant.EPOCH));
        }
      }
    }
    return new BackupPage(statuses, Optional.empty());
  }

  /** The manifest of {@code id}; {@link ManifestException} when its JSON cannot be trusted. */
  private Optional<Manifest> read(BackupIdentifier id) {
    byte[] json;
    synchronized (manifests) {
      json = manifests.get(id);
    }
    return Optional.ofNullable(json)
        .map(j -> CODEC.decode(j, "memory:" + id + "/manifest.json", id));
  }

  /** Holding the lock: replaces the manifest. */
  private Manifest write(Manifest manifest) {
    manifests.put(manifest.id(), CODEC.encode(manifest));
    return manifest;
  }

  /**
   * Reads, decides and writes one manifest atomically; {@code tolerant} reads an untrusted one as
   * absent.
   */
  private <R> R change(
      BackupIdentifier id, Function<Optional<Manifest>, R> decide, boolean tolerant) {
    synchronized (manifests) {
      Optional<Manifest> current;
      try {
        current = read(id);
      } catch (ManifestException e) {
        if (!tolerant) {
          throw e;
        }
        current = Optional.empty();
      }
      return decide.apply(current);
    }
  }
}
