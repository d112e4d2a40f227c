package io.cairn.journal.segment;

import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * One open segment file: its descriptor, the writer's channel and the published tail. Internal to
 * the journal.
 *
 * <p>The single writer changes {@link #tail()} after the bytes of a record are in the file; other
 * threads read the tail to learn how far the segment may be read.
 */
public final class Segment {

  private final Path path;
  private final SegmentDescriptor descriptor;
  private final FileChannel channel;
  private volatile Tail tail;
  private boolean dirty;

  /**
   * The last record of a segment and where its bytes end, published together.
   *
   * @param lastIndex the index of the last record ({@code firstIndex - 1} when empty)
   * @param endPositionBytes the offset just after the last record's frame (the descriptor's length
   *     when empty)
   * @param lastAsqn the highest non-ignored asqn in the journal up to and including lastIndex, or
   *     -1 when there is none
   * @param unmarkedFrameBytes the length of the last record's frame when its marker is not written
   *     yet (see {@link SegmentWriter}), else 0
   */
  public record Tail(long lastIndex, int endPositionBytes, long lastAsqn, int unmarkedFrameBytes) {

    public Tail(long lastIndex, int endPositionBytes, long lastAsqn) {
      this(lastIndex, endPositionBytes, lastAsqn, 0);
    }

    /** The index of the last record whose marker is written. */
    public long markedLastIndex() {
      return unmarkedFrameBytes == 0 ? lastIndex : lastIndex - 1;
    }

    /**
     * Where the marked records end: the length a copy of the file needs to open with every marked
     * record.
     */
    public int markedEndPositionBytes() {
      return endPositionBytes - unmarkedFrameBytes;
    }
  }

  public Segment(Path path, SegmentDescriptor descriptor, FileChannel channel, Tail tail) {
    this.path = path;
    this.descriptor = descriptor;
    this.channel = channel;
    this.tail = tail;
  }

  public Path path() {
    return path;
  }

  public SegmentDescriptor descriptor() {
    return descriptor;
  }

  public long id() {
    return descriptor.segmentId();
  }

  public long firstIndex() {
    return descriptor.firstIndex();
  }

  public int maxSizeBytes() {
    return descriptor.maxSegmentSizeBytes();
  }

  public FileChannel channel() {
    return channel;
  }

  public Tail tail() {
    return tail;
  }

  public long lastIndex() {
    return tail.lastIndex();
  }

  public boolean isEmpty() {
    return tail.lastIndex() < descriptor.firstIndex();
  }

  /** Writer thread only: publishes a new tail after its bytes were written. */
  public void publish(Tail newTail) {
    this.tail = newTail;
    this.dirty = true;
  }

  /** Writer thread only: whether bytes were written since the last {@link #force()}. */
  public boolean isDirty() {
    return dirty;
  }

  public void markDirty() {
    dirty = true;
  }

  /** Writer thread only: fsyncs the file's data. */
  public void force() throws IOException {
    if (dirty) {
      channel.force(false);
      dirty = false;
    }
  }

  /**
   * Writer thread only: whether bytes were written since the last force, and from now on counts
   * them as forced — the caller then runs {@link #forceData()} (on any thread).
   */
  public boolean takeDirty() {
    boolean wasDirty = dirty;
    dirty = false;
    return wasDirty;
  }

  /**
   * Any thread: fsyncs the file's data. Returns normally when the segment was closed meanwhile
   * (deleted by a truncation or a reset, or the journal closed): what it held is not the caller's
   * to count as durable any more, and a segment closed by rolling was forced before. An interrupt
   * of the calling thread (which closes the channel too) is thrown: nothing is known forced.
   */
  public void forceData() throws IOException {
    try {
      channel.force(false);
    } catch (ClosedByInterruptException e) {
      throw e; // the forcing thread was interrupted: nothing is known to be durable
    } catch (ClosedChannelException e) {
      // see above: nothing left to make durable through this file
    }
  }

  public void close() throws IOException {
    channel.close();
  }

  @Override
  public String toString() {
    return "Segment{" + path.getFileName() + ", firstIndex=" + firstIndex() + ", " + tail + '}';
  }
}
