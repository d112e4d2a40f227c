package io.cairn.qa.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What this JVM (the whole embedded cluster) holds at one moment: heap right after a full GC,
 * resident memory, open file descriptors, live threads, the brokers' open journal readers, and the
 * bytes on disk of the given directories.
 */
record ResourceSample(
    long elapsedSeconds,
    long heapAfterGcBytes,
    long rssBytes,
    long openFiles,
    long threads,
    long journalReaders,
    long diskBytes) {

  /** The measures, in the order of {@link #values()}, with their units. */
  static final List<String> MEASURES =
      List.of(
          "heap after GC (MiB)",
          "resident memory (MiB)",
          "open files",
          "threads",
          "journal readers",
          "disk used (MiB)");

  private static final long MIB = 1024 * 1024;

  /**
   * Takes a sample; runs a full GC first so that the heap figure is what is still reachable.
   *
   * @param journalReaders the brokers' {@code cairn.journal.readers}, summed
   */
  static ResourceSample take(long elapsedSeconds, List<Path> directories, long journalReaders) {
    ManagementFactory.getMemoryMXBean().gc();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    return new ResourceSample(
        elapsedSeconds,
        heap,
        residentBytes(),
        count(Path.of("/proc/self/fd")),
        ManagementFactory.getThreadMXBean().getThreadCount(),
        journalReaders,
        directories.stream().mapToLong(ResourceSample::bytes).sum());
  }

  /** The measures as plotted: memory and disk in MiB. */
  long[] values() {
    return new long[] {
      heapAfterGcBytes / MIB, rssBytes / MIB, openFiles, threads, journalReaders, diskBytes / MIB
    };
  }

  static String csvHeader() {
    return "elapsed_s,heap_after_gc_bytes,rss_bytes,open_files,threads,journal_readers,disk_bytes";
  }

  String csv() {
    return elapsedSeconds
        + ","
        + heapAfterGcBytes
        + ","
        + rssBytes
        + ","
        + openFiles
        + ","
        + threads
        + ","
        + journalReaders
        + ","
        + diskBytes;
  }

  /**
   * What this JVM's open file descriptors point at, counted by kind: the target with its digits
   * replaced by {@code #} ({@code /tmp/.../raft-partition-#-#.log}, {@code socket:[#]}), so that a
   * descriptor that leaks shows up as a kind that grows.
   */
  static java.util.SortedMap<String, Integer> openFileKinds() {
    java.util.SortedMap<String, Integer> kinds = new java.util.TreeMap<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : fds.toList()) {
        String target;
        try {
          target = Files.readSymbolicLink(fd).toString();
        } catch (IOException closed) {
          continue; // closed while listing
        }
        kinds.merge(target.replaceAll("[0-9]+", "#"), 1, Integer::sum);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return kinds;
  }

  private static long residentBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
      throw new IllegalStateException("Expected VmRSS in /proc/self/status, but it has none");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long count(Path directory) {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Bytes of the regular files under {@code directory}; files vanishing meanwhile count 0. */
  private static long bytes(Path directory) {
    if (!Files.exists(directory)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(directory)) {
      return files
          .mapToLong(
              file -> {
                try {
                  return Files.isRegularFile(file) ? Files.size(file) : 0;
                } catch (IOException gone) {
                  return 0;
                }
              })
          .sum();
    } catch (IOException | UncheckedIOException e) {
      return 0; // a directory removed while walking (compaction, retention): the next sample counts
    }
  }
}
