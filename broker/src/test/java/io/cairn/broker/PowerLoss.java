package io.cairn.broker;

import io.cairn.broker.partition.PartitionLayout;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.JournalSegmentFile;
import io.cairn.journal.SegmentedJournal;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What a power loss leaves of a stopped node's journals: every record up to the index its raft
 * member had flushed survives; of the records after it, the disk kept the bytes up to a random
 * point — none, some whole records, or a record torn in the middle (the file then ends inside its
 * frame). The journal must cut a torn record when it opens, and raft must not have acknowledged
 * anything after the flushed index.
 */
final class PowerLoss {

  private PowerLoss() {}

  /**
   * Tears the journal of each partition in {@code flushed} on the node whose data directory is
   * {@code dataDirectory}.
   *
   * @param flushed partition id → the index its member had flushed when the power went
   * @return what was lost, a line per partition that lost anything
   */
  static List<String> tear(
      Path dataDirectory, Map<Integer, Long> flushed, int segmentSizeBytes, SplittableRandom dice) {
    List<String> lost = new ArrayList<>();
    flushed.forEach(
        (partition, durable) -> {
          String line = tearJournal(dataDirectory, partition, durable, segmentSizeBytes, dice);
          if (line != null) {
            lost.add(line);
          }
        });
    return lost;
  }

  private static String tearJournal(
      Path dataDirectory,
      int partition,
      long durable,
      int segmentSizeBytes,
      SplittableRandom dice) {
    PartitionLayout layout = PartitionLayout.of(dataDirectory, partition);
    if (!Files.isDirectory(layout.journal())) {
      return null;
    }
    JournalConfig config =
        JournalConfig.builder()
            .directory(layout.journal())
            .name(PartitionLayout.journalName(partition))
            .segmentSizeBytes(segmentSizeBytes)
            .build();
    Map<Path, byte[]> written = new HashMap<>();
    long last;
    JournalSegmentFile kept;
    try (SegmentedJournal journal = SegmentedJournal.open(config, new SimpleMeterRegistry())) {
      last = journal.getLastIndex();
      if (last <= durable || journal.getFirstIndex() > durable + 1) {
        return null; // nothing unflushed, or a log reset past it (a snapshot installed)
      }
      for (JournalSegmentFile file : journal.segmentFiles()) {
        written.put(file.path(), read(file.path(), file.committedLengthBytes()));
      }
      journal.deleteAfter(durable);
      List<JournalSegmentFile> files = journal.segmentFiles();
      kept = files.get(files.size() - 1);
    }
    // the disk kept the unflushed bytes of the last surviving segment up to a random point
    byte[] before = written.get(kept.path());
    int from = (int) kept.committedLengthBytes();
    int to = from + dice.nextInt(before.length - from + 1);
    write(kept.path(), from, before, to);
    return "partition "
        + partition
        + ": flushed "
        + durable
        + " of "
        + last
        + ", kept "
        + (to - from)
        + " of "
        + (before.length - from)
        + " unflushed bytes";
  }

  private static byte[] read(Path file, long length) {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer buffer = ByteBuffer.allocate((int) length);
      while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) >= 0) {
        // read on
      }
      return buffer.array();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(Path file, int from, byte[] bytes, int to) {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes, from, to - from);
      long at = from;
      while (buffer.hasRemaining()) {
        at += channel.write(buffer, at);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
