package io.cairn.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journal opens every file it writes or forces through its {@link JournalFiles}. */
final class JournalFilesTest {

  @TempDir Path directory;

  private JournalConfig config(JournalFiles files) {
    return JournalConfig.builder()
        .directory(directory)
        .name("journal")
        .segmentSizeBytes(4096)
        .files(files)
        .build();
  }

  @Test
  void shouldOpenSegmentsTheirTemporaryFilesAndTheDirectoryThroughItsFiles() {
    List<String> opened = new ArrayList<>();
    JournalFiles counting =
        (path, options) -> {
          opened.add(directory.relativize(path).toString());
          return FileChannel.open(path, options);
        };

    try (SegmentedJournal journal =
        SegmentedJournal.open(config(counting), new SimpleMeterRegistry())) {
      for (int i = 0; i < 40; i++) { // 40 × 120 bytes: more than one 4 KiB segment
        journal.append(i + 1, new UnsafeBuffer(new byte[100]));
      }
      journal.flush();
      assertThat(journal.getLastIndex()).isEqualTo(40);
    }

    assertThat(opened)
        .contains("journal-1.log.tmp", "journal-1.log", "journal-2.log.tmp", "journal-2.log", "");
  }

  @Test
  void shouldFailToOpenWhenItsFilesFailNamingTheJournalAndTheCause() {
    JournalFiles full =
        (path, options) -> {
          throw new IOException("No space left on device");
        };

    assertThatThrownBy(() -> SegmentedJournal.open(config(full), new SimpleMeterRegistry()))
        .isInstanceOf(JournalException.class)
        .hasMessageContaining("Expected to open the journal 'journal' in " + directory)
        .hasMessageContaining("No space left on device");
  }
}
