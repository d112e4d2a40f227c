package io.cairn.protocol.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class AccountPlacementTest {

  @Test
  void shouldHashWithCrc32cOfTheUtf8Bytes() {
    // The CRC-32C check value of "123456789" (RFC 3720, appendix B.4).
    assertThat(AccountPlacement.hash("123456789")).isEqualTo(0xE3069283L);
    assertThat(AccountPlacement.hash("")).isZero();
  }

  @Test
  void shouldPlaceByHashModuloPartitionCountPlusOne() {
    assertThat(new AccountPlacement(1).partitionOf("123456789")).isEqualTo(1);
    assertThat(new AccountPlacement(3).partitionOf("123456789"))
        .isEqualTo((int) (0xE3069283L % 3) + 1);
    assertThat(new AccountPlacement(7).partitionOf("123456789"))
        .isEqualTo((int) (0xE3069283L % 7) + 1);
  }

  @Test
  void shouldSpreadAccountsOverEveryPartition() {
    AccountPlacement placement = new AccountPlacement(4);
    int[] counts = new int[5];
    for (int i = 0; i < 4_000; i++) {
      counts[placement.partitionOf("account-" + i)]++;
    }
    for (int partition = 1; partition <= 4; partition++) {
      assertThat(counts[partition]).as("partition %d", partition).isBetween(800, 1200);
    }
  }

  @Test
  void shouldRejectAPartitionCountOutOfRange() {
    assertThatThrownBy(() -> new AccountPlacement(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected partitionCount in [1, 32767], but was 0 (account placement)");
    assertThatThrownBy(() -> new AccountPlacement(32_768))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
