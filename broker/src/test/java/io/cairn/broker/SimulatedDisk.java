package io.cairn.broker;

import io.cairn.journal.JournalFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The disk under one simulated node's journals: sound, full (every write fails with "No space left
 * on device"), or failing its fsyncs ("Input/output error"). The state applies at once to every
 * channel the journals opened, as a disk's would. Each failure is an {@link IOException} whose
 * message starts with {@code "Injected: "}.
 */
final class SimulatedDisk implements JournalFiles {

  /** What the disk does now. */
  enum State {
    SOUND,
    FULL,
    FAILING_FSYNC
  }

  private final AtomicInteger failures = new AtomicInteger();
  private volatile State state = State.SOUND;

  State state() {
    return state;
  }

  void state(State value) {
    state = value;
  }

  /** How many calls failed so far. */
  int failures() {
    return failures.get();
  }

  @Override
  public FileChannel open(Path path, OpenOption... options) throws IOException {
    return new Channel(FileChannel.open(path, options), path);
  }

  private void beforeWrite(Path path) throws IOException {
    if (state == State.FULL) {
      failures.incrementAndGet();
      throw new IOException("Injected: No space left on device, writing " + path);
    }
  }

  private void beforeForce(Path path) throws IOException {
    if (state == State.FAILING_FSYNC) {
      failures.incrementAndGet();
      throw new IOException("Injected: Input/output error, forcing " + path);
    }
  }

  /** A real channel whose writes and forces ask the disk first. */
  private final class Channel extends FileChannel {
    private final FileChannel real;
    private final Path path;

    Channel(FileChannel real, Path path) {
      this.real = real;
      this.path = path;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return real.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return real.read(dsts, offset, length);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return real.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      beforeWrite(path);
      return real.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      beforeWrite(path);
      return real.write(srcs, offset, length);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      beforeWrite(path);
      return real.write(src, position);
    }

    @Override
    public long position() throws IOException {
      return real.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      real.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return real.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      real.truncate(size);
      return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
      beforeForce(path);
      real.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target)
        throws IOException {
      return real.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count)
        throws IOException {
      beforeWrite(path);
      return real.transferFrom(src, position, count);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      return real.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return real.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return real.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      real.close();
    }
  }
}
