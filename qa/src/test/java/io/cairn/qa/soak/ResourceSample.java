package io.cairn.qa.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What this JVM (the whole embedded cluster) holds at one moment: heap right after a full GC,
 * resident memory, open file descriptors (RocksDB's table files apart, with the table files that
 * exist: RocksDB keeps every live one open, so their count follows compaction, not a leak), live
 * threads, the brokers' open journal readers, and the bytes on disk of the given directories.
 */
record ResourceSample(
    long elapsedSeconds,
    long heapAfterGcBytes,
    long rssBytes,
    long openFiles,
    long tableFilesOpen,
    long tableFilesLive,
    long threads,
    long journalReaders,
    long diskBytes) {

  /** The measures, in the order of {@link #values()}, with their units. */
  static final List<String> MEASURES =
      List.of(
          "heap after GC (MiB)",
          "resident memory (MiB)",
          "open files (RocksDB table files apart)",
          "RocksDB table files open",
          "RocksDB table files on disk",
          "threads",
          "journal readers",
          "disk used (MiB)");

  private static final long MIB = 1024 * 1024;

  /**
   * Takes a sample; runs a full GC first so that the heap figure is what is still reachable.
   *
   * @param dataDirectory where the brokers' partitions keep their RocksDB state
   * @param journalReaders the brokers' {@code cairn.journal.readers}, summed
   */
  static ResourceSample take(
      long elapsedSeconds, List<Path> directories, Path dataDirectory, long journalReaders) {
    ManagementFactory.getMemoryMXBean().gc();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    long liveTableFiles = tableFiles(dataDirectory);
    long files = 0;
    long tableFiles = 0;
    for (String target : openFileTargets()) {
      if (isTableFile(target)) {
        tableFiles++;
      } else {
        files++;
      }
    }
    return new ResourceSample(
        elapsedSeconds,
        heap,
        residentBytes(),
        files,
        tableFiles,
        liveTableFiles,
        ManagementFactory.getThreadMXBean().getThreadCount(),
        journalReaders,
        directories.stream().mapToLong(ResourceSample::bytes).sum());
  }

  /** The measures as plotted: memory and disk in MiB. */
  long[] values() {
    return new long[] {
      heapAfterGcBytes / MIB,
      rssBytes / MIB,
      openFiles,
      tableFilesOpen,
      tableFilesLive,
      threads,
      journalReaders,
      diskBytes / MIB
    };
  }

  static String csvHeader() {
    return "elapsed_s,heap_after_gc_bytes,rss_bytes,open_files,table_files_open,table_files_live,"
        + "threads,journal_readers,disk_bytes";
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
        + tableFilesOpen
        + ","
        + tableFilesLive
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
  static SortedMap<String, Integer> openFileKinds() {
    SortedMap<String, Integer> kinds = new TreeMap<>();
    for (String target : openFileTargets()) {
      kinds.merge(target.replaceAll("[0-9]+", "#"), 1, Integer::sum);
    }
    return kinds;
  }

  /** What this JVM's open file descriptors point at. */
  private static List<String> openFileTargets() {
    List<String> targets = new ArrayList<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : fds.toList()) {
        try {
          targets.add(Files.readSymbolicLink(fd).toString());
        } catch (IOException closed) {
          // closed while listing
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return targets;
  }

  /** A table file of a partition's RocksDB state (not of a snapshot being taken). */
  private static boolean isTableFile(String path) {
    return path.contains("/runtime/") && path.endsWith(".sst");
  }

  /** The table files of the partitions' RocksDB state under {@code dataDirectory}. */
  private static long tableFiles(Path dataDirectory) {
    if (!Files.exists(dataDirectory)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(dataDirectory)) {
      return files.filter(file -> isTableFile(file.toString())).count();
    } catch (IOException | UncheckedIOException e) {
      return 0; // a directory removed while walking: the next sample counts
    }
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
