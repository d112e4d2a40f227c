package io.cairn.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LedgerKeysTest {

  @Test
  void shouldEncodePartitionAndPosition() {
    // when
    long key = LedgerKeys.of(3, 42);

    // then
    assertThat(key).isEqualTo((3L << 48) | 42);
    assertThat(LedgerKeys.partitionId(key)).isEqualTo(3);
    assertThat(LedgerKeys.position(key)).isEqualTo(42);
    assertThat(LedgerKeys.isValid(key)).isTrue();
  }

  @Test
  void shouldKeepKeysPositiveAndDistinctAcrossPartitions() {
    // given
    SplittableRandom random = new SplittableRandom(11);
    Set<Long> keys = new HashSet<>();

    // when
    for (int i = 0; i < 10_000; i++) {
      int partition = 1 + random.nextInt(LedgerKeys.MAX_PARTITION_ID);
      long position = 1 + random.nextLong(LedgerKeys.MAX_POSITION);
      long key = LedgerKeys.of(partition, position);

      // then
      assertThat(key).isPositive();
      assertThat(LedgerKeys.partitionId(key)).isEqualTo(partition);
      assertThat(LedgerKeys.position(key)).isEqualTo(position);
      keys.add(key);
    }
    assertThat(keys).hasSize(10_000);
    assertThat(LedgerKeys.of(LedgerKeys.MAX_PARTITION_ID, LedgerKeys.MAX_POSITION))
        .isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void shouldRejectPartitionOrPositionOutOfRange() {
    assertThatThrownBy(() -> LedgerKeys.of(0, 1))
        .hasMessage("Expected partitionId in [1, 32767], but was 0");
    assertThatThrownBy(() -> LedgerKeys.of(1, 0))
        .hasMessage("Expected position in [1, 281474976710655], but was 0 (partition 1)");
    assertThatThrownBy(() -> LedgerKeys.of(1, LedgerKeys.MAX_POSITION + 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(LedgerKeys.isValid(-1)).isFalse();
    assertThat(LedgerKeys.isValid(42)).isFalse();
  }
}
