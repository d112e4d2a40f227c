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
    PendingCredit credit =
        new PendingCredit(LedgerKeys.of(2, 99), "ünïcødé-7", Long.MAX_VALUE, 2, 5, -1, "frøm");
    ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(8);

    // when
    int length = PendingCreditCodec.INSTANCE.encode(credit, buffer, 3);

    // then
    assertThat(length)
        .isEqualTo(
            37
                + "ünïcødé-7".getBytes(StandardCharsets.UTF_8).length
                + "frøm".getBytes(StandardCharsets.UTF_8).length);
    assertThat(PendingCreditCodec.INSTANCE.decode(buffer, 3, length)).isEqualTo(credit);
  }

  @Test
  void shouldPinTheLayout() {
    // given
    ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);

    // when
    int length =
        PendingCreditCodec.INSTANCE.encode(
            new PendingCredit(0x0102, "ab", 3, 4, 5, 6, "xyz"), buffer, 0);

    // then
    byte[] bytes = new byte[length];
    buffer.getBytes(0, bytes);
    assertThat(bytes)
        .containsExactly(
            2, // version
            0, 0, 0, 0, 0, 0, 1, 2, // transfer key
            0, 0, 0, 0, 0, 0, 0, 3, // amount
            0, 0, 0, 0, 0, 0, 0, 6, // checkpoint id
            0, 0, 0, 4, // source partition
            0, 0, 0, 5, // target partition
            0, 0, 0, 2, // to account id length
            'a', 'b', // to account id
            'x', 'y', 'z'); // from account id
  }

  @Test
  void shouldReadVersionOneWithoutFromAccountAsNotRefundable() {
    // given the bytes version 1 wrote
    byte[] v1 = {
      1, // version
      0, 0, 0, 0, 0, 0, 1, 2, // transfer key
      0, 0, 0, 0, 0, 0, 0, 3, // amount
      0, 0, 0, 0, 0, 0, 0, 6, // checkpoint id
      0, 0, 0, 4, // source partition
      0, 0, 0, 5, // target partition
      'a', 'b'
    };

    // when
    PendingCredit credit = PendingCreditCodec.INSTANCE.decode(new UnsafeBuffer(v1), 0, v1.length);

    // then
    assertThat(credit)
        .isEqualTo(
            new PendingCredit(0x0102, "ab", 3, 4, 5, 6, PendingCredit.UNKNOWN_FROM_ACCOUNT_ID));
    assertThat(credit.isRefundable()).isFalse();
  }

  @Test
  void shouldRejectUnknownVersionShortInputAndBadLength() {
    assertThatThrownBy(
            () -> PendingCreditCodec.INSTANCE.decode(new UnsafeBuffer(new byte[40]), 0, 40))
        .hasMessage("Expected pending credit version 1 or 2, but was 0");
    assertThatThrownBy(
            () -> PendingCreditCodec.INSTANCE.decode(new UnsafeBuffer(new byte[10]), 0, 10))
        .hasMessage("Expected at least 33 bytes of a pending credit, but got 10");
    byte[] badLength = new byte[40];
    badLength[0] = 2;
    badLength[36] = 4; // to account id length 4, but only 3 bytes follow
    assertThatThrownBy(() -> PendingCreditCodec.INSTANCE.decode(new UnsafeBuffer(badLength), 0, 40))
        .hasMessage(
            "Expected a to account id length in [0, 3], but was 4 (pending credit of version 2)");
  }
}
