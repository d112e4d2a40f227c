package io.cairn.journal.segment;

import io.cairn.journal.CorruptedJournalException;
import io.cairn.journal.Journal;
import io.cairn.journal.segment.SegmentDescriptor.InvalidDescriptorException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the segments of a journal after a clean shutdown or a crash. Internal to the journal.
 *
 * <p>Recovery rules:
 *
 * <ul>
 *   <li>Segments older than the newest segment flagged {@link SegmentDescriptor#FLAG_RESET} are
 *       deleted: a reset creates its segment first and then deletes the older ones.
 *   <li>Every descriptor must be valid (magic, version, checksum) and name the segment id of its
 *       file; each segment must begin where the previous one ends.
 *   <li>A closed segment (every segment but the last) must hold valid records, with gapless
 *       indexes, up to the index before the next segment's first index, and nothing after them. A
 *       closed segment was forced before the next one was created, so any other content is
 *       corruption. An empty closed segment, which a crash left while a larger segment replaced it,
 *       is deleted.
 *   <li>In the last segment, the first frame that is not valid ends the journal. If it is empty
 *       (marker 0 and zero header) that is the normal end. Otherwise it is a torn tail when no
 *       valid frame with a higher index follows it anywhere in the segment: it is cut off (logged
 *       at WARN with file and offset). If one follows, the frame is corruption.
 * </ul>
 *
 * Corruption raises {@link CorruptedJournalException}.
 */
public final class SegmentLoader {

  private static final Logger LOG = LoggerFactory.getLogger(SegmentLoader.class);
  private static final int WINDOW_BYTES = 1024 * 1024;

  private final SegmentFiles files;
  private final SparseIndex index;
  private final FileWindow window = new FileWindow(WINDOW_BYTES);
  private final FrameCheck frame = new FrameCheck();

  public SegmentLoader(SegmentFiles files, SparseIndex index) {
    this.files = files;
    this.index = index;
  }

  /**
   * Opens, validates and recovers every segment, filling the sparse index.
   *
   * @return the segments, oldest first; empty when the directory holds none
   */
  public List<Segment> load() throws IOException {
    List<SegmentFiles.Found> found = new ArrayList<>(files.list());
    List<FileChannel> channels = new ArrayList<>();
    List<Segment> segments = new ArrayList<>();
    boolean loaded = false;
    try {
      List<SegmentDescriptor> descriptors = new ArrayList<>();
      for (SegmentFiles.Found file : found) {
        FileChannel channel = files.open(file.path());
        channels.add(channel);
        descriptors.add(readDescriptor(channel, file));
      }
      completeReset(found, channels, descriptors);
      long lastAsqn = Journal.ASQN_IGNORE;
      for (int i = 0; i < found.size(); i++) {
        Path path = found.get(i).path();
        SegmentDescriptor descriptor = descriptors.get(i);
        if (!segments.isEmpty()) {
          long previousLast = segments.get(segments.size() - 1).lastIndex();
          if (descriptor.firstIndex() != previousLast + 1) {
            throw new CorruptedJournalException(
                "Expected the segment to begin at index "
                    + (previousLast + 1)
                    + ", where the previous segment ends, but it begins at index "
                    + descriptor.firstIndex(),
                path,
                0,
                previousLast + 1);
          }
        }
        boolean last = i == found.size() - 1;
        long expectedLastIndex = last ? -1 : descriptors.get(i + 1).firstIndex() - 1;
        if (!last && expectedLastIndex < descriptor.firstIndex() - 1) {
          throw new CorruptedJournalException(
              "Expected segment indexes to increase, but the next segment begins at index "
                  + (expectedLastIndex + 1)
                  + ", before this segment's first index "
                  + descriptor.firstIndex(),
              path,
              0,
              descriptor.firstIndex());
        }
        Segment.Tail tail =
            scan(channels.get(i), path, descriptor, last, expectedLastIndex, lastAsqn);
        if (!last && tail.lastIndex() < descriptor.firstIndex()) {
          // an empty segment that the next one replaced (created with a larger size)
          LOG.info("Deleting {}, an empty segment replaced by {}", path, found.get(i + 1).path());
          channels.get(i).close();
          Files.delete(path);
          continue;
        }
        segments.add(new Segment(path, descriptor, channels.get(i), tail));
        lastAsqn = tail.lastAsqn();
      }
      loaded = true;
      return segments;
    } finally {
      if (!loaded) {
        for (FileChannel channel : channels) {
          channel.close();
        }
      }
    }
  }

  /**
   * Deletes the segments older than the newest segment created by a reset: a crash interrupted the
   * reset after it created its segment.
   */
  private void completeReset(
      List<SegmentFiles.Found> found,
      List<FileChannel> channels,
      List<SegmentDescriptor> descriptors)
      throws IOException {
    int reset = -1;
    for (int i = 0; i < descriptors.size(); i++) {
      if (descriptors.get(i).isReset()) {
        reset = i;
      }
    }
    if (reset <= 0) {
      return;
    }
    LOG.warn(
        "Completing an interrupted reset of the journal in {}: deleting {} segment(s) older"
            + " than {}",
        files.directory(),
        reset,
        found.get(reset).path());
    for (int i = 0; i < reset; i++) {
      channels.get(0).close();
      Files.delete(found.get(0).path());
      channels.remove(0);
      found.remove(0);
      descriptors.remove(0);
    }
    files.forceDirectory();
  }

  private SegmentDescriptor readDescriptor(FileChannel channel, SegmentFiles.Found file)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(SegmentDescriptor.LENGTH_BYTES);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, buffer.position()) < 0) {
        break;
      }
    }
    buffer.flip();
    SegmentDescriptor descriptor;
    try {
      descriptor = SegmentDescriptor.decode(buffer, file.path().toString());
    } catch (InvalidDescriptorException e) {
      throw new CorruptedJournalException(e.getMessage(), file.path(), 0, -1);
    }
    if (descriptor.segmentId() != file.segmentId()) {
      throw new CorruptedJournalException(
          "Expected segment id "
              + file.segmentId()
              + " as in the file name, but the descriptor holds "
              + descriptor.segmentId(),
          file.path(),
          SegmentDescriptor.SEGMENT_ID_OFFSET,
          -1);
    }
    return descriptor;
  }

  private Segment.Tail scan(
      FileChannel channel,
      Path path,
      SegmentDescriptor descriptor,
      boolean last,
      long expectedLastIndex,
      long lastAsqnBefore)
      throws IOException {
    long fileSize = channel.size();
    long limit = Math.min(descriptor.maxSegmentSizeBytes(), fileSize);
    window.use(channel);
    long position = SegmentDescriptor.LENGTH_BYTES;
    long nextIndex = descriptor.firstIndex();
    long lastAsqn = lastAsqnBefore;
    while (true) {
      if (!last && nextIndex - 1 == expectedLastIndex) {
        if (frame.check(window, position, limit, FrameCheck.ANY_INDEX) != FrameCheck.Status.EMPTY) {
          throw new CorruptedJournalException(
              "Expected the segment to end at index "
                  + expectedLastIndex
                  + ", where the next segment begins, but it holds more bytes after it ("
                  + (frame.problem() == null ? "a valid frame" : frame.problem())
                  + ")",
              path,
              position,
              nextIndex);
        }
        break;
      }
      FrameCheck.Status status = frame.check(window, position, limit, nextIndex);
      if (status == FrameCheck.Status.VALID) {
        if (frame.asqn() != Journal.ASQN_IGNORE) {
          lastAsqn = frame.asqn();
        }
        index.onRecord(
            nextIndex,
            frame.asqn(),
            lastAsqn,
            (int) position,
            nextIndex == descriptor.firstIndex());
        position += frame.frameLength();
        nextIndex++;
        continue;
      }
      if (status == FrameCheck.Status.EMPTY) {
        if (!last) {
          throw new CorruptedJournalException(
              "Expected the segment to hold records up to index "
                  + expectedLastIndex
                  + ", where the next segment begins, but it ends at index "
                  + (nextIndex - 1),
              path,
              position,
              nextIndex);
        }
        break;
      }
      if (!last) {
        throw corruption(path, position, nextIndex, "");
      }
      long follower = findValidFrame(position + 1, limit, nextIndex);
      if (follower >= 0) {
        throw corruption(
            path, position, nextIndex, ", followed by a valid record at offset " + follower);
      }
      LOG.warn(
          "Truncating the torn tail of journal segment {} at offset {} ({}); the journal now"
              + " ends at index {}",
          path,
          position,
          frame.problem(),
          nextIndex - 1);
      SegmentTruncator.cutFile(channel, position, fileSize, descriptor.maxSegmentSizeBytes());
      channel.force(true);
      break;
    }
    return new Segment.Tail(nextIndex - 1, (int) position, lastAsqn);
  }

  private CorruptedJournalException corruption(
      Path path, long position, long index, String context) {
    if (frame.isChecksumMismatch() && context.isEmpty()) {
      return new CorruptedJournalException(
          path, position, index, frame.storedChecksum(), frame.computedChecksum());
    }
    return new CorruptedJournalException(frame.problem() + context, path, position, index);
  }

  /**
   * Searches byte by byte for a valid frame holding an index above {@code tornIndex}: such a frame
   * proves that the invalid frame before it was once complete, since the writer writes a record
   * only after the previous record's marker.
   *
   * @return its offset, or -1
   */
  private long findValidFrame(long from, long limit, long tornIndex) throws IOException {
    FrameCheck candidate = new FrameCheck();
    long maxIndex = tornIndex + (limit - from) / FrameDescriptor.HEADER_LENGTH_BYTES + 1;
    for (long at = from; at + FrameDescriptor.HEADER_LENGTH_BYTES <= limit; at++) {
      if (!window.ensure(at, FrameDescriptor.HEADER_LENGTH_BYTES)
          || window.getByte(at) != FrameDescriptor.MARKER_V1) {
        continue;
      }
      long frameIndex = window.getLong(at + FrameDescriptor.INDEX_OFFSET);
      if (frameIndex <= tornIndex || frameIndex > maxIndex) {
        continue;
      }
      if (candidate.check(window, at, limit, FrameCheck.ANY_INDEX) == FrameCheck.Status.VALID) {
        return at;
      }
    }
    return -1;
  }
}
