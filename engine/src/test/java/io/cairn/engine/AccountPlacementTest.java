package io.cairn.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.protocol.api.AccountPlacement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AccountPlacementTest {

  @Test
  void shouldHashWithCrc32cOfUtf8Bytes() {
    // the CRC-32C check value of "123456789" (RFC 3720) and pinned ids: changing the function
    // would move every account of an existing cluster
    assertThat(AccountPlacement.hash("123456789")).isEqualTo(0xE3069283L);
    assertThat(AccountPlacement.hash("alice")).isEqualTo(4211212942L);
    assertThat(AccountPlacement.hash("ünïcødé")).isEqualTo(3063605659L);
  }

  @Test
  void shouldPlaceByHashModuloPartitionCountPlusOne() {
    assertThat(new AccountPlacement(3).partitionOf("alice")).isEqualTo(2);
    assertThat(new AccountPlacement(3).partitionOf("bob")).isEqualTo(1);
    assertThat(new AccountPlacement(8).partitionOf("alice")).isEqualTo(7);
    assertThat(new AccountPlacement(8).partitionOf("ünïcødé")).isEqualTo(4);
    assertThat(new AccountPlacement(1).partitionOf("alice")).isEqualTo(1);
  }

  @Test
  void shouldSpreadAccountsOverEveryPartition() {
    // given
    AccountPlacement placement = new AccountPlacement(4);
    Map<Integer, Integer> counts = new HashMap<>();

    // when
    for (int i = 0; i < 4_000; i++) {
      counts.merge(placement.partitionOf("account-" + i), 1, Integer::sum);
    }

    // then
    assertThat(counts).containsOnlyKeys(1, 2, 3, 4);
    assertThat(counts.values()).allSatisfy(count -> assertThat(count).isBetween(850, 1150));
  }

  @Test
  void shouldRejectPartitionCountOutsideTheKeyRange() {
    assertThatThrownBy(() -> new AccountPlacement(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected partitionCount in [1, 32767], but was 0 (account placement)");
    assertThatThrownBy(() -> new AccountPlacement(32768))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
