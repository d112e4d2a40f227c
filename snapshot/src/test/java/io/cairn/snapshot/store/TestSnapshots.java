package io.cairn.snapshot.store;

import io.cairn.scheduler.SimClock;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotConfig;
import io.cairn.snapshot.SnapshotMetadata;
import io.cairn.snapshot.SnapshotStateWriter;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.snapshot.TransientSnapshot;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/** Stores, metadata and state writers for tests. */
public final class TestSnapshots {

  public static final String BROKER_VERSION = "0.1.0-test";

  private TestSnapshots() {}

  public static SnapshotConfig retaining(int count) {
    return SnapshotConfig.builder().retainedSnapshotCount(count).build();
  }

  public static FileSnapshotStore open(Path directory) {
    return open(directory, SnapshotConfig.defaults(), SnapshotPhaseListener.NONE);
  }

  public static FileSnapshotStore open(Path directory, SnapshotConfig config) {
    return open(directory, config, SnapshotPhaseListener.NONE);
  }

  public static FileSnapshotStore open(
      Path directory, SnapshotConfig config, SnapshotPhaseListener listener) {
    return open(directory, config, listener, new SimpleMeterRegistry());
  }

  public static FileSnapshotStore open(
      Path directory,
      SnapshotConfig config,
      SnapshotPhaseListener listener,
      MeterRegistry registry) {
    return FileSnapshotStore.open(
        directory, config, new SimClock(1_000), registry, Tags.of("partition", "1"), listener);
  }

  /** Metadata whose id is {@code index-term-processed-written}, other fields derived. */
  public static SnapshotMetadata metadata(long index, long term, long processed, long written) {
    return new SnapshotMetadata(
        index,
        term,
        processed,
        processed / 2,
        written,
        BROKER_VERSION,
        1_000 + index,
        String.format("%032x", index * 31 + processed));
  }

  /**
   * Metadata for snapshot number {@code n} of a growing state: index n*10, term 1, its last
   * processed command without follow-ups (last written below processed), so that each snapshot
   * stands for itself and retention keeps no base for it.
   */
  public static SnapshotMetadata metadata(long n) {
    return metadata(n * 10, 1, n * 100, n * 100 - 3);
  }

  /**
   * Writes {@code count} files named {@code 00000i.sst} with pseudo-random content from {@code
   * seed} (sizes 0 to {@code maxSizeBytes}), plus a {@code CURRENT} file.
   */
  public static SnapshotStateWriter files(long seed, int count, int maxSizeBytes) {
    return target -> {
      Random random = new Random(seed);
      Files.createDirectory(target);
      for (int i = 0; i < count; i++) {
        byte[] content = new byte[random.nextInt(maxSizeBytes + 1)];
        random.nextBytes(content);
        Files.write(target.resolve(String.format("%06d.sst", i)), content);
      }
      Files.writeString(target.resolve("CURRENT"), "MANIFEST-" + seed + "\n");
    };
  }

  /** A small state for snapshot number {@code n}. */
  public static SnapshotStateWriter smallState(long n) {
    return files(n, 3, 2048);
  }

  public static PersistedSnapshot take(
      SnapshotStore store, SnapshotMetadata metadata, SnapshotStateWriter writer) {
    TransientSnapshot snapshot = store.newTransientSnapshot(metadata);
    snapshot.writeState(writer);
    return snapshot.persist();
  }

  /** Takes snapshot number {@code n} with a small state. */
  public static PersistedSnapshot take(SnapshotStore store, long n) {
    return take(store, metadata(n), smallState(n));
  }

  /** Flips one bit of the byte at {@code offset} of {@code file}. */
  public static void flipBit(Path file, long offset) throws IOException {
    byte[] content = Files.readAllBytes(file);
    content[(int) offset] ^= 0x10;
    Files.write(file, content);
  }

  /** A crash injected at a phase: an Error, so the store does not clean up. */
  public static final class SimulatedCrash extends Error {
    private static final long serialVersionUID = 1L;

    public SimulatedCrash(SnapshotPhase phase) {
      super("simulated crash at " + phase);
    }
  }

  /** A listener that crashes the first time the given phase is reached. */
  public static SnapshotPhaseListener crashAt(SnapshotPhase target) {
    boolean[] crashed = new boolean[1];
    return (phase, id) -> {
      if (phase == target && !crashed[0]) {
        crashed[0] = true;
        throw new SimulatedCrash(phase);
      }
    };
  }
}
