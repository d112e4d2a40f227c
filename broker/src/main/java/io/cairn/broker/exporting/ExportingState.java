package io.cairn.broker.exporting;

import io.cairn.files.DurableFiles;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether exporting is paused on this broker: every exporter director of the broker's partitions
 * stops handing records to exporters while it is. Operators pause it cluster-wide (the gateway asks
 * every broker) while they back up a store an exporter fills. The flag is durable: a change is
 * fsynced before it takes effect or is confirmed, and a restarted broker comes up as it was.
 *
 * <p>File {@value #FILE_NAME} in the data directory, version 1, 12 bytes, big-endian:
 *
 * <pre>
 *  offset  size  field
 *  0       4     magic 0x43584550 ("CXEP")
 *  4       1     version (1)
 *  5       1     paused: 0 or 1
 *  6       2     reserved, 0
 *  8       4     CRC32C of bytes [0, 8)
 * </pre>
 *
 * It is replaced atomically (written to a temporary file, fsynced, renamed, directory fsynced). No
 * file: not paused. Any other content fails the broker's start, naming the file.
 *
 * <p>Thread-safe; listeners are told after a change is durable, on the changing thread.
 */
public final class ExportingState {

  /** The file's name in the data directory. */
  public static final String FILE_NAME = "exporting.state";

  static final int MAGIC = 0x43584550;
  static final byte VERSION = 1;
  static final int LENGTH = 12;

  private static final Logger LOG = LoggerFactory.getLogger(ExportingState.class);

  private final Path file;
  private final Path directory;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private volatile boolean paused;

  private ExportingState(Path directory, boolean paused) {
    this.directory = directory;
    this.file = directory.resolve(FILE_NAME);
    this.paused = paused;
  }

  /**
   * Reads the flag from {@code dataDirectory} (not paused if the file does not exist).
   *
   * @throws IllegalStateException if the file exists but is not a valid version-1 state file
   * @throws UncheckedIOException if it cannot be read
   */
  public static ExportingState open(Path dataDirectory) {
    Path file = dataDirectory.resolve(FILE_NAME);
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return new ExportingState(dataDirectory, false);
    } catch (IOException e) {
      throw new UncheckedIOException("Expected to read " + file + ", but it failed", e);
    }
    boolean paused = decode(bytes, file);
    if (paused) {
      LOG.info("Exporting is paused on this broker ({}); resume it to export again", file);
    }
    return new ExportingState(dataDirectory, paused);
  }

  private static boolean decode(byte[] bytes, Path file) {
    String fix =
        ". Restore the file, or delete it (exporting then resumes) and pause again if needed";
    if (bytes.length != LENGTH) {
      throw new IllegalStateException(
          "Expected " + LENGTH + " bytes in " + file + ", but it has " + bytes.length + fix);
    }
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, 8);
    int expected = buffer.getInt(8);
    if ((int) crc.getValue() != expected) {
      throw new IllegalStateException(
          "Expected the checksum of "
              + file
              + " to be "
              + Integer.toHexString(expected)
              + ", but it is "
              + Integer.toHexString((int) crc.getValue())
              + " (corrupted)"
              + fix);
    }
    if (buffer.getInt(0) != MAGIC || buffer.get(4) != VERSION || buffer.get(5) > 1) {
      throw new IllegalStateException(
          "Expected an exporting state file of version "
              + VERSION
              + " in "
              + file
              + ", but its magic, version or flag is unknown"
              + fix);
    }
    return buffer.get(5) == 1;
  }

  /** Whether exporting is paused now. */
  public boolean isPaused() {
    return paused;
  }

  /**
   * Pauses exporting: durable before it returns. Idempotent.
   *
   * @throws UncheckedIOException if the flag cannot be made durable (it is then unchanged)
   */
  public void pause() {
    set(true);
  }

  /** Resumes exporting; durable before it returns. Idempotent. */
  public void resume() {
    set(false);
  }

  private synchronized void set(boolean newPaused) {
    if (paused == newPaused && Files.exists(file)) {
      return;
    }
    write(newPaused);
    paused = newPaused;
    LOG.info("Exporting {} on this broker ({})", newPaused ? "paused" : "resumed", file);
    for (Runnable listener : listeners) {
      listener.run();
    }
  }

  private void write(boolean newPaused) {
    ByteBuffer buffer = ByteBuffer.allocate(LENGTH).order(ByteOrder.BIG_ENDIAN);
    buffer.putInt(MAGIC).put(VERSION).put((byte) (newPaused ? 1 : 0)).putShort((short) 0);
    CRC32C crc = new CRC32C();
    crc.update(buffer.array(), 0, 8);
    buffer.putInt((int) crc.getValue());
    try {
      DurableFiles.writeAtomically(file, buffer.array());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Expected to write the exporting state to " + file + ", but it failed", e);
    }
  }

  /**
   * Registers {@value ExporterMetrics#PAUSED} (gauge, tag {@code node}): 1 while exporting is
   * paused on this broker, else 0.
   */
  public Gauge registerGauge(MeterRegistry registry, int nodeId) {
    return Gauge.builder(ExporterMetrics.PAUSED, () -> paused ? 1 : 0)
        .description("1 while exporting is paused on this broker, else 0")
        .tag("node", Integer.toString(nodeId))
        .register(registry);
  }

  /** Adds a listener told after every change (on the changing thread; it must not block). */
  public void addListener(Runnable listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  public void removeListener(Runnable listener) {
    listeners.remove(listener);
  }
}
