package io.cairn.broker.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class NodeDescriptorTest {

  private static final NodeDescriptor NODE = NodeDescriptor.of("cairn", 1, 3);

  @TempDir Path directory;

  @Test
  void shouldWriteTheDescriptorIntoANewDirectoryAndAcceptItAgain() throws IOException {
    // given
    Path data = directory.resolve("data");

    // when
    NodeDescriptor written = NodeDescriptor.checkOrCreate(data, NODE);
    NodeDescriptor again = NodeDescriptor.checkOrCreate(data, NODE);

    // then
    assertThat(written).isEqualTo(NODE);
    assertThat(again).isEqualTo(NODE);
    assertThat(NodeDescriptor.read(data.resolve(NodeDescriptor.FILE_NAME))).isEqualTo(NODE);
    assertThat(Files.readString(data.resolve("node.json")))
        .contains("\"formatVersion\" : 1")
        .contains("\"clusterId\" : \"cairn\"")
        .contains("\"nodeId\" : 1")
        .contains("\"partitionCount\" : 3");
    try (Stream<Path> files = Files.list(data)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("node.json");
    }
  }

  static Stream<Arguments> otherShapes() {
    return Stream.of(
        Arguments.of(
            NodeDescriptor.of("cairn", 2, 3),
            "it was made for node 2 of cluster 'cairn' with 3 partitions: node id 2 (configured"
                + " 1) differ"),
        Arguments.of(
            NodeDescriptor.of("other", 1, 3), "cluster id 'other' (configured 'cairn') differ"),
        Arguments.of(NodeDescriptor.of("cairn", 1, 4), "partition count 4 (configured 3) differ"),
        Arguments.of(
            NodeDescriptor.of("other", 0, 8),
            "cluster id 'other' (configured 'cairn'), node id 0 (configured 1), partition count 8"
                + " (configured 3) differ"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("otherShapes")
  void shouldRefuseADirectoryMadeForAnotherShape(NodeDescriptor existing, String expected) {
    // given a directory made for another node, cluster or partition count
    Path data = directory.resolve("data");
    NodeDescriptor.checkOrCreate(data, existing);

    // then
    assertThatThrownBy(() -> NodeDescriptor.checkOrCreate(data, NODE))
        .isInstanceOf(NodeDescriptorMismatchException.class)
        .hasMessageStartingWith(
            "Expected the data directory "
                + data
                + " to belong to node 1 of cluster 'cairn' with 3 partitions, but")
        .hasMessageContaining(expected)
        .hasMessageContaining("Point data.directory at this node's own directory")
        .hasMessageContaining("a cluster's partition count cannot change");
  }

  @Test
  void shouldRefusePartitionsWithoutADescriptor() throws IOException {
    // given data of an unknown node
    Path data = directory.resolve("data");
    Files.createDirectories(data.resolve("partitions").resolve("1"));

    // then
    assertThatThrownBy(() -> NodeDescriptor.checkOrCreate(data, NODE))
        .isInstanceOf(NodeDescriptorMismatchException.class)
        .hasMessageContaining("in a data directory that holds partitions, but it is missing")
        .hasMessageContaining("write node.json with those values");
    assertThat(data.resolve("node.json")).doesNotExist();
  }

  @Test
  void shouldRefuseANewerFormatAndABrokenFile() throws IOException {
    Path data = Files.createDirectories(directory.resolve("data"));
    Path file = data.resolve("node.json");

    Files.writeString(
        file, "{\"formatVersion\":2,\"clusterId\":\"cairn\",\"nodeId\":1,\"partitionCount\":3}");
    assertThatThrownBy(() -> NodeDescriptor.checkOrCreate(data, NODE))
        .isInstanceOf(NodeDescriptorMismatchException.class)
        .hasMessageContaining("format version 1 or lower, but " + file + " has version 2")
        .hasMessageContaining("made by a newer broker");

    Files.writeString(file, "{\"formatVersion\":1,\"clusterId\":\"cairn\"");
    assertThatThrownBy(() -> NodeDescriptor.checkOrCreate(data, NODE))
        .isInstanceOf(NodeDescriptorMismatchException.class)
        .hasMessageContaining("it is not valid JSON");

    Files.writeString(file, "{\"formatVersion\":1,\"clusterId\":\"cairn\",\"nodeId\":\"one\"}");
    assertThatThrownBy(() -> NodeDescriptor.checkOrCreate(data, NODE))
        .isInstanceOf(NodeDescriptorMismatchException.class)
        .hasMessageContaining("nodeId (an integer), partitionCount (an integer)");
  }

  @Test
  void shouldIgnoreFieldsItDoesNotKnow() throws IOException {
    Path data = Files.createDirectories(directory.resolve("data"));
    Files.writeString(
        data.resolve("node.json"),
        "{\"formatVersion\":1,\"clusterId\":\"cairn\",\"nodeId\":1,\"partitionCount\":3,"
            + "\"createdBy\":\"0.2.0\"}");

    assertThat(NodeDescriptor.checkOrCreate(data, NODE)).isEqualTo(NODE);
  }
}
