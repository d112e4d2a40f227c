package io.cairn.exporter.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.exporter.ExportedRecord;
import io.cairn.exporter.ExporterContext;
import io.cairn.exporter.InMemoryExporterController;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

final class JsonLinesExporterTest {

  private static final int PARTITION_ID = 2;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path directory;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void shouldWriteOneLinePerRecordInOrderAndAcknowledgeOnlyAfterTheFlush() throws Exception {
    // given
    InMemoryExporterController controller = new InMemoryExporterController(-1);
    JsonLinesExporter exporter = open(controller, Map.of("directory", dir()));

    // when
    for (long position = 1; position <= 5; position++) {
      exporter.export(deposit(position));
    }

    // then nothing is acknowledged before the flush timer ran
    assertThat(controller.acknowledged).isEmpty();
    controller.runScheduledTasks();
    assertThat(controller.acknowledged).containsExactly(5L);
    assertThat(positionsIn(allLines())).containsExactly(1L, 2L, 3L, 4L, 5L);
    JsonNode first = JSON.readTree(allLines().get(0));
    assertThat(first.get("partitionId").asInt()).isEqualTo(PARTITION_ID);
    assertThat(first.get("intent").asText()).isEqualTo("DEPOSIT");
    assertThat(first.get("value").get("accountId").asText()).isEqualTo("a");
    assertThat(registry.get(JsonLinesExporterMetrics.WRITTEN_BYTES).counter().count())
        .isEqualTo((double) Files.size(exporter.currentFile()));

    // and the flush reschedules itself; close flushes the rest and removes the meter
    exporter.export(deposit(6));
    exporter.close();
    assertThat(controller.acknowledged).containsExactly(5L, 6L);
    assertThat(registry.find(JsonLinesExporterMetrics.WRITTEN_BYTES).counter()).isNull();
  }

  @Test
  void shouldRollOverToANewFileBeforeOneWouldPassTheMaximumSize() throws Exception {
    // given a maximum of 4KB, about 20 lines
    InMemoryExporterController controller = new InMemoryExporterController(-1);
    JsonLinesExporter exporter = open(controller, Map.of("directory", dir(), "maxFileSize", "4KB"));

    // when
    for (long position = 1; position <= 100; position++) {
      exporter.export(deposit(position));
    }
    exporter.close();

    // then every file is within the limit, the names sort in order, and no record is missing
    List<Path> files = files();
    assertThat(files).hasSizeGreaterThan(3);
    for (Path file : files) {
      assertThat(Files.size(file)).isLessThanOrEqualTo(4096);
    }
    assertThat(files.get(0).getFileName().toString()).isEqualTo("partition-2-0000000001.jsonl");
    assertThat(positionsIn(allLines())).hasSize(100).isSorted().doesNotHaveDuplicates();
    // each roll-over acknowledged what the closed file held
    assertThat(controller.acknowledged).hasSize(files.size()).endsWith(100L);
  }

  @Test
  void shouldCutATornLastLineAndAppendAfterItWhenOpenedAgain() throws Exception {
    // given a file whose last line was torn by a crash
    InMemoryExporterController first = new InMemoryExporterController(-1);
    JsonLinesExporter crashed = open(first, Map.of("directory", dir()));
    crashed.export(deposit(1));
    crashed.export(deposit(2));
    first.runScheduledTasks();
    Path file = crashed.currentFile();
    Files.writeString(file, "{\"partitionId\":2,\"posi", StandardOpenOption.APPEND);

    // when a new exporter opens where the acknowledged position was
    InMemoryExporterController second = new InMemoryExporterController(2);
    JsonLinesExporter reopened = open(second, Map.of("directory", dir()));
    reopened.export(deposit(3));
    reopened.close();

    // then the torn line is gone and the file holds whole lines only
    assertThat(reopened.currentFile()).isEqualTo(file);
    assertThat(positionsIn(allLines())).containsExactly(1L, 2L, 3L);
    assertThat(Files.readString(file)).endsWith("\n");
    assertThat(second.acknowledged).containsExactly(3L);
  }

  @Test
  void shouldListEveryBadArgument() {
    assertThatThrownBy(
            () ->
                JsonLinesExporterConfig.fromArguments(
                    Map.of("maxFileSize", "1KB", "flushIntervall", "1s")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected argument maxFileSize to be a size in [4KB, 1TB]")
        .hasMessageContaining("flushIntervall is not one; did you mean flushInterval?")
        .hasMessageContaining("Expected argument directory to name where the files go");
    assertThat(
            JsonLinesExporterConfig.fromArguments(
                Map.of("DIRECTORY", "/x", "flushinterval", "250ms")))
        .isEqualTo(new JsonLinesExporterConfig(Path.of("/x"), 64L << 20, Duration.ofMillis(250)));
  }

  private JsonLinesExporter open(InMemoryExporterController controller, Map<String, String> args)
      throws IOException {
    JsonLinesExporter exporter = new JsonLinesExporter();
    exporter.open(
        new ExporterContext(
            "files",
            PARTITION_ID,
            args,
            LoggerFactory.getLogger(JsonLinesExporterTest.class),
            registry,
            controller));
    return exporter;
  }

  private String dir() {
    return directory.resolve("out").toString();
  }

  private static ExportedRecord deposit(long position) {
    return new ExportedRecord(
        PARTITION_ID,
        new Record(
            RecordMetadata.builder()
                .position(position)
                .timestamp(1_000 + position)
                .command(DepositIntent.DEPOSIT)
                .build(),
            new DepositValue("a", position * 100)));
  }

  private List<Path> files() throws IOException {
    try (Stream<Path> list = Files.list(directory.resolve("out"))) {
      return list.sorted().toList();
    }
  }

  private List<String> allLines() throws IOException {
    List<String> lines = new ArrayList<>();
    for (Path file : files()) {
      lines.addAll(Files.readAllLines(file, StandardCharsets.UTF_8));
    }
    return lines;
  }

  private static List<Long> positionsIn(List<String> lines) throws IOException {
    List<Long> positions = new ArrayList<>();
    for (String line : lines) {
      positions.add(JSON.readTree(line).get("position").asLong());
    }
    return positions;
  }
}
