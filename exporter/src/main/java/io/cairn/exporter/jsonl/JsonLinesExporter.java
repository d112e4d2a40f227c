package io.cairn.exporter.jsonl;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.exporter.ExportedRecord;
import io.cairn.exporter.Exporter;
import io.cairn.exporter.ExporterContext;
import io.cairn.exporter.ExporterController;
import io.micrometer.core.instrument.Counter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;

/**
 * The built-in exporter (type {@value #TYPE}): one JSON object per line per record ({@link
 * ExportedRecord#toMap()}), into files of the partition under a directory ({@link JsonLinesFiles}),
 * rolled over by size.
 *
 * <p>Durability: lines are buffered (up to {@value #BUFFER_BYTES} bytes) and written to the file;
 * every {@code flushInterval} (and before a roll-over and at close) the file is fsynced and only
 * then the last written position acknowledged. After a crash, records after the last acknowledged
 * position are exported again (at least once): a file may then hold a record twice, never miss one.
 * A torn last line is cut off when the exporter opens again.
 *
 * <p>Meters: {@value JsonLinesExporterMetrics#WRITTEN_BYTES} (counter, tag {@code partition}),
 * removed at close.
 */
public final class JsonLinesExporter implements Exporter {

  /** The exporter type in the broker configuration ({@code type: jsonl}). */
  public static final String TYPE = "jsonl";

  static final int BUFFER_BYTES = 64 * 1024;

  private final ObjectMapper mapper = new ObjectMapper();
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(BUFFER_BYTES);

  private ExporterContext context;
  private ExporterController controller;
  private JsonLinesExporterConfig config;
  private JsonLinesFiles files;
  private Counter writtenBytes;
  private ExporterController.ScheduledTask flushTask;
  private FileChannel channel;
  private Path file;
  private long sequence;
  private long fileSize;
  private long lastBufferedPosition = ExportedRecord.NO_POSITION;
  private long lastWrittenPosition = ExportedRecord.NO_POSITION;
  private boolean closed;

  @Override
  public void open(ExporterContext context) throws IOException {
    this.context = context;
    this.controller = context.controller();
    this.config = JsonLinesExporterConfig.fromArguments(context.configuration());
    Files.createDirectories(config.directory());
    files = new JsonLinesFiles(config.directory(), context.partitionId());
    OptionalLong last = files.lastSequence();
    if (last.isPresent()) {
      Path lastFile = files.file(last.getAsLong());
      long size = JsonLinesFiles.cutTornTail(lastFile, context.logger());
      if (size < config.maxFileSizeBytes()) {
        openFile(last.getAsLong(), false);
      } else {
        openFile(last.getAsLong() + 1, true);
      }
    } else {
      openFile(1, true);
    }
    lastWrittenPosition = controller.lastExportedPosition();
    lastBufferedPosition = lastWrittenPosition;
    writtenBytes =
        JsonLinesExporterMetrics.writtenBytes(context.meterRegistry(), context.partitionId());
    scheduleFlush();
    context
        .logger()
        .info(
            "Exporting partition {} as JSON lines to {} (from position {})",
            context.partitionId(),
            file,
            lastWrittenPosition + 1);
  }

  private void openFile(long newSequence, boolean create) throws IOException {
    Path path = files.file(newSequence);
    channel =
        create
            ? FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)
            : FileChannel.open(path, StandardOpenOption.WRITE);
    if (create) {
      files.syncDirectory();
    }
    fileSize = channel.size();
    channel.position(fileSize);
    sequence = newSequence;
    file = path;
  }

  @Override
  public void export(ExportedRecord record) throws IOException {
    byte[] line = mapper.writeValueAsBytes(record.toMap());
    int lineBytes = line.length + 1;
    if (fileSize + buffer.size() > 0
        && fileSize + buffer.size() + lineBytes > config.maxFileSizeBytes()) {
      rollOver();
    }
    if (buffer.size() > 0 && buffer.size() + lineBytes > BUFFER_BYTES) {
      writeBuffer();
    }
    buffer.write(line);
    buffer.write('\n');
    lastBufferedPosition = record.position();
  }

  private void rollOver() throws IOException {
    flush();
    channel.close();
    channel = null;
    openFile(sequence + 1, true);
  }

  /** Writes the buffer to the file; on failure cuts what was written of it, so a retry is clean. */
  private void writeBuffer() throws IOException {
    if (buffer.size() == 0) {
      return;
    }
    ByteBuffer bytes = ByteBuffer.wrap(buffer.toByteArray());
    int length = bytes.remaining();
    try {
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
    } catch (IOException e) {
      try {
        channel.truncate(fileSize);
        channel.position(fileSize);
      } catch (IOException cut) {
        e.addSuppressed(cut);
      }
      throw e;
    }
    fileSize += length;
    writtenBytes.increment(length);
    buffer.reset();
    lastWrittenPosition = lastBufferedPosition;
  }

  /** Writes the buffer, fsyncs the file, then acknowledges what it holds. */
  void flush() throws IOException {
    writeBuffer();
    channel.force(false);
    if (lastWrittenPosition > controller.lastExportedPosition()) {
      controller.updateLastExportedPosition(lastWrittenPosition);
    }
  }

  private void scheduleFlush() {
    flushTask = controller.scheduleTask(config.flushInterval(), this::flushOnTimer);
  }

  private void flushOnTimer() {
    if (closed) {
      return;
    }
    try {
      flush();
    } catch (IOException | RuntimeException e) {
      context
          .logger()
          .warn(
              "Flushing {} failed; nothing is acknowledged and it is tried again in {}: {}",
              file,
              config.flushInterval(),
              e.toString());
    } finally {
      scheduleFlush();
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    if (flushTask != null) {
      flushTask.cancel();
    }
    try {
      if (channel != null) {
        flush();
      }
    } finally {
      if (channel != null) {
        channel.close();
        channel = null;
      }
      if (writtenBytes != null) {
        context.meterRegistry().remove(writtenBytes);
      }
    }
  }

  /** The file written now (for tests and logs). */
  Path currentFile() {
    return file;
  }
}
