package io.cairn.backupapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IdentifiersTest {

  @ParameterizedTest
  @CsvSource({
    "-1, 1, 1, nodeId >= 0",
    "0, 0, 1, partitionId >= 1",
    "0, 1, 0, checkpointId >= 1",
    "0, 1, -5, checkpointId >= 1"
  })
  void shouldRejectInvalidIdentifier(int node, int partition, long checkpoint, String rule) {
    assertThatThrownBy(() -> new BackupIdentifier(node, partition, checkpoint))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Expected " + rule + ", but was");
  }

  @Test
  void shouldOrderByPartitionThenCheckpointThenNode() {
    var ids =
        List.of(
            new BackupIdentifier(1, 2, 1),
            new BackupIdentifier(0, 1, 12),
            new BackupIdentifier(1, 1, 2),
            new BackupIdentifier(0, 1, 2));

    assertThat(ids.stream().sorted().toList())
        .containsExactly(
            new BackupIdentifier(0, 1, 2), new BackupIdentifier(1, 1, 2),
            new BackupIdentifier(0, 1, 12), new BackupIdentifier(1, 2, 1));
  }

  @ParameterizedTest
  @CsvSource({
    "*, 1, true",
    "*, 999, true",
    "12, 12, true",
    "12, 120, false",
    "12*, 12, true",
    "12*, 120, true",
    "12*, 1, false",
    "12*, 212, false",
    "1*, 19, true",
    "1*, 21, false"
  })
  void shouldMatchCheckpointPattern(String pattern, long checkpoint, boolean matches) {
    assertThat(CheckpointPattern.parse(pattern).matches(checkpoint)).isEqualTo(matches);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "**", "1*2", "*1", "01", "0", "-1", "abc", "1 ", "99999999999999999999"})
  void shouldRejectMalformedCheckpointPattern(String pattern) {
    assertThatThrownBy(() -> CheckpointPattern.parse(pattern))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + pattern + "'");
  }

  @Test
  void shouldRoundTripCheckpointPatternText() {
    for (String text : List.of("*", "7", "12*")) {
      assertThat(CheckpointPattern.parse(text).toString()).isEqualTo(text);
      assertThat(CheckpointPattern.parse(text)).isEqualTo(CheckpointPattern.parse(text));
    }
  }

  @Test
  void shouldMatchWildcardOnEveryGivenField() {
    var wildcard =
        BackupIdentifierWildcard.ofPartition(2)
            .withNode(1)
            .withCheckpoints(CheckpointPattern.parse("3*"));

    assertThat(wildcard.matches(new BackupIdentifier(1, 2, 31))).isTrue();
    assertThat(wildcard.matches(new BackupIdentifier(0, 2, 31))).isFalse();
    assertThat(wildcard.matches(new BackupIdentifier(1, 3, 31))).isFalse();
    assertThat(wildcard.matches(new BackupIdentifier(1, 2, 13))).isFalse();
    assertThat(BackupIdentifierWildcard.all().matches(new BackupIdentifier(5, 9, 99))).isTrue();
  }

  @Test
  void shouldRejectWildcardWithInvalidIds() {
    assertThatThrownBy(
            () ->
                new BackupIdentifierWildcard(
                    Optional.of(-1), Optional.empty(), CheckpointPattern.any()))
        .hasMessageContaining("nodeId >= 0");
    assertThatThrownBy(() -> BackupIdentifierWildcard.ofPartition(0))
        .hasMessageContaining("partitionId >= 1");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, PageRequest.MAX_SIZE + 1, -3})
  void shouldRejectPageSizeOutOfRange(int size) {
    assertThatThrownBy(() -> PageRequest.first(size))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("page size in 1.." + PageRequest.MAX_SIZE);
  }
}
