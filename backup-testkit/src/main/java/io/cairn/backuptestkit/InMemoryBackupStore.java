package io.cairn.backuptestkit;

import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupapi.content.ContentCipher;
import io.cairn.backupapi.content.ContentDecoder;
import io.cairn.backupapi.content.ContentEncoder;
import io.cairn.backupapi.content.EncodedContent;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestCodec;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.backupstore.BackupStoreSkeleton;
import io.cairn.backupstore.ContentProblems;
import io.cairn.backupstore.FileTask;
import io.cairn.backupstore.ManifestChange;
import io.cairn.backupstore.ObjectLayer;
import io.cairn.backupstore.PageTokens;
import io.cairn.backupstore.StoreOperations;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.UnaryOperator;

/**
 * A backup store in memory, for tests and simulations, and the proof that a store is only its
 * {@link ObjectLayer}: a map of manifests (as their encoded JSON, so a test can tamper with them)
 * and a map of encoded objects; everything else is {@link BackupStoreSkeleton}'s. It passes the
 * whole {@link BackupStoreTestKit}. One lock makes every manifest change atomic; a copy of the
 * previous backup's object stands for reuse. Objects are keyed {@code <id>/<set>/<name>}.
 */
public final class InMemoryBackupStore extends BackupStoreSkeleton {

  /**
   * The bytes of one in-memory store, shared by every store opened on it (as a directory or a
   * bucket is). Tests may read and change them to corrupt a backup.
   */
  public static final class Storage {
    /** Encoded manifests by backup, in listing order; guarded by itself. */
    public final TreeMap<BackupIdentifier, byte[]> manifests = new TreeMap<>();

    /** Encoded objects by {@link #key}; reuse stores the same array under a second key. */
    public final Map<String, byte[]> objects = new ConcurrentHashMap<>();

    /** The log archive's objects by key, in key order; guarded by itself. */
    public final TreeMap<String, byte[]> archive = new TreeMap<>();
  }

  public InMemoryBackupStore(
      Storage storage,
      CompressionPolicy compression,
      BackupEncryption encryption,
      Clock clock,
      Executor executor) {
    this(storage, compression, encryption, clock, executor, UnaryOperator.identity());
  }

  /**
   * A store whose bytes are reached through {@code layer} applied to the in-memory one: a {@link
   * FaultyObjectLayer} makes it fail as object stores do.
   */
  public InMemoryBackupStore(
      Storage storage,
      CompressionPolicy compression,
      BackupEncryption encryption,
      Clock clock,
      Executor executor,
      UnaryOperator<ObjectLayer> layer) {
    super(
        new StoreOperations("memory", new SimpleMeterRegistry(), "cairn.backupmemory.operations"),
        executor,
        executor,
        layer.apply(new Objects(storage, compression)),
        encryption,
        clock);
  }

  /** Where the object of a file is kept in {@link Storage#objects}. */
  public static String key(BackupIdentifier id, FileSetKind kind, String name) {
    return id + "/" + kind.directoryName() + "/" + name;
  }

  @Override
  protected void released() {}

  private record Objects(Storage storage, CompressionPolicy compression) implements ObjectLayer {

    private static final ManifestCodec CODEC = new ManifestCodec();
    private static final PageTokens PAGE_TOKENS = new PageTokens("mem1:");

    @Override
    public String locate(BackupIdentifier id, FileSetKind kind, String name) {
      return "memory:" + key(id, kind, name);
    }

    @Override
    public Optional<Manifest> readManifest(BackupIdentifier id) {
      byte[] json;
      synchronized (storage.manifests) {
        json = storage.manifests.get(id);
      }
      return Optional.ofNullable(json)
          .map(j -> CODEC.decode(j, "memory:" + id + "/manifest.json", id));
    }

    @Override
    public <R> R changeManifest(
        BackupIdentifier id,
        Function<Optional<Manifest>, ManifestChange<R>> decide,
        boolean markingFailure) {
      synchronized (storage.manifests) {
        ManifestChange<R> change = decide.apply(readManifest(id));
        if (change instanceof ManifestChange.Write<R> write) {
          storage.manifests.put(id, CODEC.encode(write.next()));
          return write.result();
        }
        return ((ManifestChange.Keep<R>) change).result();
      }
    }

    @Override
    public BackupPage list(BackupIdentifierWildcard wildcard, PageRequest page) throws Exception {
      List<BackupIdentifier> ids;
      synchronized (storage.manifests) {
        ids = storage.manifests.keySet().stream().filter(wildcard::matches).toList();
      }
      return PAGE_TOKENS.page(
          ids,
          page,
          id -> {
            try {
              return readManifest(id).map(Manifest::toStatus);
            } catch (ManifestException e) {
              return Optional.of(BackupStatus.unreadableManifest(id, e, Instant.EPOCH));
            }
          });
    }

    @Override
    public int delete(BackupIdentifier id, Consumer<Optional<Manifest>> check) {
      synchronized (storage.manifests) {
        Optional<Manifest> current;
        try {
          current = readManifest(id);
        } catch (ManifestException e) {
          current = Optional.empty();
        }
        check.accept(current);
        int before = storage.objects.size();
        storage.objects.keySet().removeIf(k -> k.startsWith(id + "/"));
        storage.manifests.remove(id);
        return before - storage.objects.size();
      }
    }

    @Override
    public void prepare(BackupIdentifier id) {
      storage.objects.keySet().removeIf(k -> k.startsWith(id + "/"));
    }

    @Override
    public EncodedContent put(
        BackupIdentifier id, FileSetKind kind, BackupFile file, ContentCipher cipher)
        throws IOException {
      var out = new ByteArrayOutputStream();
      EncodedContent encoded =
          ContentEncoder.encode(file.path(), file.lengthBytes(), compression, cipher, out);
      storage.objects.put(key(id, kind, file.name()), out.toByteArray());
      return encoded;
    }

    @Override
    public boolean reuse(
        BackupIdentifier from, BackupIdentifier to, FileSetKind kind, ManifestFile entry) {
      byte[] stored = storage.objects.get(key(from, kind, entry.name()));
      if (stored == null || stored.length != entry.storedSizeBytes()) {
        return false;
      }
      storage.objects.put(key(to, kind, entry.name()), stored);
      return true;
    }

    @Override
    public Optional<FileProblem> restore(
        BackupIdentifier id,
        FileSetKind kind,
        ManifestFile entry,
        ContentCipher cipher,
        FileChannel target,
        LongConsumer progress) {
      return check(id, kind, entry, cipher, Channels.newOutputStream(target), progress);
    }

    @Override
    public Optional<FileProblem> verify(
        BackupIdentifier id, FileSetKind kind, ManifestFile entry, ContentCipher cipher) {
      return check(id, kind, entry, cipher, null, bytes -> {});
    }

    private Optional<FileProblem> check(
        BackupIdentifier id,
        FileSetKind kind,
        ManifestFile entry,
        ContentCipher cipher,
        OutputStream sink,
        LongConsumer progress) {
      var problems = new ContentProblems(kind, entry, locate(id, kind, entry.name()));
      byte[] stored = storage.objects.get(key(id, kind, entry.name()));
      if (stored == null) {
        return problems.missing();
      }
      Optional<FileProblem> sized = problems.checkStoredSize(stored.length);
      if (sized.isPresent()) {
        return sized;
      }
      try {
        var in = new ByteArrayInputStream(stored);
        return problems.checkDecoded(
            stored.length,
            ContentDecoder.decode(
                in,
                entry.compression(),
                cipher,
                ContentProblems.guard(sink),
                entry.sizeBytes(),
                progress));
      } catch (IOException e) {
        return problems.undecodable(stored.length, e);
      }
    }

    @Override
    public <T> List<T> runAll(List<FileTask<T>> tasks) throws Exception {
      List<T> results = new ArrayList<>();
      for (FileTask<T> task : tasks) {
        results.add(task.work().call());
      }
      return results;
    }

    @Override
    public String locateArchive(String key) {
      return "memory:archive/" + key;
    }

    @Override
    public boolean createArchiveObject(String key, byte[] content) {
      synchronized (storage.archive) {
        return storage.archive.putIfAbsent(key, content.clone()) == null;
      }
    }

    @Override
    public Optional<byte[]> readArchiveObject(String key) {
      synchronized (storage.archive) {
        return Optional.ofNullable(storage.archive.get(key)).map(byte[]::clone);
      }
    }

    @Override
    public List<String> listArchiveObjects(String directory, String startAfter, int limit) {
      synchronized (storage.archive) {
        return storage
            .archive
            .tailMap(startAfter == null ? directory : startAfter, false)
            .keySet()
            .stream()
            .filter(key -> key.startsWith(directory) && key.indexOf('/', directory.length()) < 0)
            .limit(limit)
            .toList();
      }
    }

    @Override
    public void deleteArchiveObject(String key) {
      synchronized (storage.archive) {
        storage.archive.remove(key);
      }
    }
  }
}
