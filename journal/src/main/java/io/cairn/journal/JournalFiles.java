package io.cairn.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * How a journal opens the channels it writes and forces: its segment files, their temporary files
 * and its directory. {@link #REAL} in a broker; a simulation gives one whose channels fail as a
 * full disk or a failing fsync would, to show what the layers above do then.
 */
@FunctionalInterface
public interface JournalFiles {

  /** The file system's own channels. */
  JournalFiles REAL = FileChannel::open;

  FileChannel open(Path path, OpenOption... options) throws IOException;
}
