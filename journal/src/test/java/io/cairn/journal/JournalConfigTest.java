package io.cairn.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class JournalConfigTest {

  private static final Path DIRECTORY = Path.of("data", "journal");

  private static JournalConfig.Builder valid() {
    return JournalConfig.builder().directory(DIRECTORY).name("raft-partition-1");
  }

  @Test
  void shouldUseDocumentedDefaults() {
    JournalConfig config = valid().build();

    assertThat(config.directory()).isEqualTo(DIRECTORY);
    assertThat(config.name()).isEqualTo("raft-partition-1");
    assertThat(config.segmentSizeBytes()).isEqualTo(128 * 1024 * 1024);
    assertThat(config.indexDensity()).isEqualTo(100);
    assertThat(config.preallocateSegmentFiles()).isTrue();
    assertThat(config.maxRecordDataBytes()).isEqualTo(128 * 1024 * 1024 - 32 - 25);
  }

  @Test
  void shouldRejectSegmentSizeBelowMinimumNamingRange() {
    assertThatThrownBy(() -> valid().segmentSizeBytes(4095).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Expected segmentSizeBytes to be between 4096 and 1073741824, but was 4095"
                + " (journal 'raft-partition-1' in "
                + DIRECTORY
                + ")");
  }

  @Test
  void shouldRejectSegmentSizeAboveMaximum() {
    assertThatThrownBy(() -> valid().segmentSizeBytes(1024 * 1024 * 1024 + 1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Expected segmentSizeBytes to be between 4096 and 1073741824, but was 1073741825");
  }

  @Test
  void shouldAcceptSegmentSizeBounds() {
    assertThat(valid().segmentSizeBytes(4096).build().segmentSizeBytes()).isEqualTo(4096);
    assertThat(valid().segmentSizeBytes(1 << 30).build().segmentSizeBytes()).isEqualTo(1 << 30);
  }

  @Test
  void shouldRejectIndexDensityBelowOne() {
    assertThatThrownBy(() -> valid().indexDensity(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Expected indexDensity to be between 1 and 1000000, but was 0");
  }

  @Test
  void shouldRejectMissingDirectoryAndBadName() {
    assertThatThrownBy(() -> JournalConfig.builder().name("a/b").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected directory to be set, but was null")
        .hasMessageContaining("Expected name to match [A-Za-z0-9_.-]{1,128}, but was 'a/b'");
  }

  @Test
  void shouldListEveryViolation() {
    assertThatThrownBy(() -> JournalConfig.builder().segmentSizeBytes(1).indexDensity(-5).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("directory")
        .hasMessageContaining("name")
        .hasMessageContaining("segmentSizeBytes")
        .hasMessageContaining("indexDensity");
  }

  @Test
  void shouldCopyEveryValueIntoABuilder() {
    JournalConfig config =
        valid().segmentSizeBytes(8192).indexDensity(7).preallocateSegmentFiles(false).build();

    assertThat(config.toBuilder().build()).isEqualTo(config);
  }
}
