package io.cairn.broker.exporting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ExportingStateTest {

  @TempDir Path directory;

  @Test
  void shouldStartResumedWithoutAFileAndKeepAPauseAcrossReopening() {
    // given
    ExportingState state = ExportingState.open(directory);
    assertThat(state.isPaused()).isFalse();
    List<Boolean> told = new ArrayList<>();
    state.addListener(() -> told.add(Files.exists(directory.resolve(ExportingState.FILE_NAME))));

    // when
    state.pause();
    state.pause();

    // then the change was durable before listeners heard of it, and once only
    assertThat(told).containsExactly(true);
    assertThat(ExportingState.open(directory).isPaused()).isTrue();
    assertThat(directory.resolve(ExportingState.FILE_NAME)).hasSize(ExportingState.LENGTH);
    assertThat(directory.resolve(ExportingState.FILE_NAME + ".tmp")).doesNotExist();

    // when resumed
    state.resume();
    assertThat(ExportingState.open(directory).isPaused()).isFalse();
    assertThat(told).containsExactly(true, true);
  }

  @Test
  void shouldRefuseACorruptedFileNamingItAndTheFix() throws Exception {
    ExportingState.open(directory).pause();
    Path file = directory.resolve(ExportingState.FILE_NAME);
    byte[] bytes = Files.readAllBytes(file);
    bytes[5] = 0; // the flag, without the checksum
    Files.write(file, bytes);

    assertThatThrownBy(() -> ExportingState.open(directory))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("(corrupted)")
        .hasMessageContaining("delete it (exporting then resumes)");

    Files.write(file, new byte[] {1, 2, 3});
    assertThatThrownBy(() -> ExportingState.open(directory))
        .hasMessageContaining("Expected 12 bytes in " + file + ", but it has 3");
  }

  @Test
  void shouldShowThePausedFlagAsAGauge() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ExportingState state = ExportingState.open(directory);
    state.registerGauge(registry, 4);

    state.pause();

    assertThat(registry.get(ExporterMetrics.PAUSED).tag("node", "4").gauge().value())
        .isEqualTo(1.0);
  }
}
