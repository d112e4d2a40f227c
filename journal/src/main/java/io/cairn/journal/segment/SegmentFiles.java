package io.cairn.journal.segment;

import io.cairn.journal.JournalFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names, creates and deletes the segment files of one journal: {@code <name>-<segmentId>.log} in
 * one directory. Internal to the journal.
 */
public final class SegmentFiles {

  private static final Logger LOG = LoggerFactory.getLogger(SegmentFiles.class);
  private static final String SUFFIX = ".log";
  private static final String TEMPORARY_SUFFIX = ".tmp";

  private final Path directory;
  private final String name;
  private final JournalFiles channels;
  private final Pattern segmentPattern;
  private final Pattern temporaryPattern;

  /**
   * The segment files of the journal {@code name} in {@code directory}, opened by {@code channels}.
   */
  public SegmentFiles(Path directory, String name, JournalFiles channels) {
    this.directory = directory;
    this.name = name;
    this.channels = channels;
    this.segmentPattern =
        Pattern.compile(Pattern.quote(name) + "-(\\d{1,19})" + Pattern.quote(SUFFIX));
    this.temporaryPattern =
        Pattern.compile(
            Pattern.quote(name) + "-(\\d{1,19})" + Pattern.quote(SUFFIX + TEMPORARY_SUFFIX));
  }

  public Path directory() {
    return directory;
  }

  public Path path(long segmentId) {
    return directory.resolve(name + "-" + segmentId + SUFFIX);
  }

  /** A segment file found in the directory. */
  public record Found(long segmentId, Path path) {}

  /**
   * Lists the segment files ordered by id and deletes temporary files left by a crash while a
   * segment was being created.
   */
  public List<Found> list() throws IOException {
    List<Found> found = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      for (Path entry : entries) {
        String fileName = entry.getFileName().toString();
        Matcher segment = segmentPattern.matcher(fileName);
        if (segment.matches()) {
          found.add(new Found(Long.parseLong(segment.group(1)), entry));
        } else if (temporaryPattern.matcher(fileName).matches()) {
          LOG.info("Deleting {}, a segment file whose creation did not complete", entry);
          Files.delete(entry);
        }
      }
    }
    found.sort(Comparator.comparingLong(Found::segmentId));
    return found;
  }

  /**
   * Creates a segment file atomically: the descriptor (and, when preallocating, the full size) is
   * written to a temporary file, forced, and renamed. Preallocation sets the file's length, which
   * the file system fills with zeros without writing them (see README "Preallocation").
   *
   * @return a read-write channel positioned nowhere in particular (positional use only)
   */
  public FileChannel create(SegmentDescriptor descriptor, boolean preallocate) throws IOException {
    Path target = path(descriptor.segmentId());
    Path temporary = target.resolveSibling(target.getFileName() + TEMPORARY_SUFFIX);
    try (FileChannel channel =
        channels.open(
            temporary,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      ByteBuffer header = descriptor.encode();
      long at = 0;
      while (header.hasRemaining()) {
        at += channel.write(header, at);
      }
      if (preallocate) {
        ByteBuffer lastByte = ByteBuffer.allocate(1);
        while (lastByte.hasRemaining()) {
          channel.write(lastByte, descriptor.maxSegmentSizeBytes() - 1L);
        }
      }
      channel.force(true);
    }
    Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
    return open(target);
  }

  public FileChannel open(Path path) throws IOException {
    return channels.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
  }

  /** Fsyncs the directory so that created, renamed and deleted entries are durable. */
  public void forceDirectory() throws IOException {
    try (FileChannel dir = channels.open(directory, StandardOpenOption.READ)) {
      dir.force(true);
    }
  }
}
