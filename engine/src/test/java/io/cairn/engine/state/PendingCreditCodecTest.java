package io.cairn.engine.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.engine.LedgerKeys;
import io.cairn.engine.PendingCredit;
import java.nio.charset.StandardCharsets;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class PendingCreditCodecTest {

  @Test
  void shouldRoundTripAtAnyOffset() {
    // given
    final PendingCredit credit =
        new PendingCredit(LedgerKeys.of(2, 99), "ünïcødé-7", Long.MAX_VALUE, 2, 5, -1);
    final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(8);

    // when
    final int length = PendingCreditCodec.INSTANCE.encode(credit, buffer, 3);

    // then
    assertThat(length).isEqualTo(33 + "ünïcødé-7".getBytes(StandardCharsets.UTF_8).length);
    assertThat(PendingCreditCodec.INSTANCE.decode(buffer, 3, length)).isEqualTo(credit);
  }

  @Test
  void shouldPinTheLayout() {
    // given
    final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);

    // when
    final int length =
        PendingCreditCodec.INSTANCE.encode(new PendingCredit(0x0102, "ab", 3, 4, 5, 6), buffer, 0);

    // then
    final byte[] bytes = new byte[length];
    buffer.getBytes(0, bytes);
    assertThat(bytes)
        .containsExactly(
            1, // version
            0, 0, 0, 0, 0, 0, 1, 2, // transfer key
            0, 0, 0, 0, 0, 0, 0, 3, // amount
            0, 0, 0, 0, 0, 0, 0, 6, // checkpoint id
            0, 0, 0, 4, // source partition
            0, 0, 0, 5, // target partition
            'a', 'b');
  }

  @Test
  void shouldRejectUnknownVersionAndShortInput() {
    assertThatThrownBy(() -> PendingCreditCodec.INSTANCE.decode(new UnsafeBuffer(new byte[40]), 0, 40))
        .hasMessage("Expected pending credit version 1, but was 0");
    assertThatThrownBy(() -> PendingCreditCodec.INSTANCE.decode(new UnsafeBuffer(new byte[10]), 0, 10))
        .hasMessage("Expected at least 33 bytes of a pending credit, but got 10");
  }
}
