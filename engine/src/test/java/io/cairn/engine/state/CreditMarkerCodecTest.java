package io.cairn.engine.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.db.DbCodecs;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class CreditMarkerCodecTest {

  @Test
  void shouldWriteAppliedMarkersAsTheAmountAloneLikeBefore() {
    // given
    ExpandableArrayBuffer marker = new ExpandableArrayBuffer(16);
    ExpandableArrayBuffer plain = new ExpandableArrayBuffer(16);

    // when
    int length =
        CreditMarkerCodec.INSTANCE.encode(
            new CreditMarker(CreditMarker.Outcome.APPLIED, 250), marker, 0);
    int plainLength = DbCodecs.LONG.encode(250L, plain, 0);

    // then the bytes of states written before refusals existed are unchanged
    assertThat(length).isEqualTo(plainLength).isEqualTo(8);
    assertThat(bytes(marker, length)).containsExactly(bytes(plain, plainLength));
  }

  @Test
  void shouldRoundTripBothOutcomesAndPinTheRefusedLayout() {
    // given
    ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(16);
    CreditMarker refused = new CreditMarker(CreditMarker.Outcome.REFUSED, 3);
    CreditMarker applied = new CreditMarker(CreditMarker.Outcome.APPLIED, Long.MAX_VALUE);

    // when
    int refusedLength = CreditMarkerCodec.INSTANCE.encode(refused, buffer, 2);

    // then
    assertThat(bytes(buffer, 2, refusedLength))
        .containsExactly(1, (byte) 0x80, 0, 0, 0, 0, 0, 0, 3);
    assertThat(CreditMarkerCodec.INSTANCE.decode(buffer, 2, refusedLength)).isEqualTo(refused);
    int appliedLength = CreditMarkerCodec.INSTANCE.encode(applied, buffer, 5);
    assertThat(CreditMarkerCodec.INSTANCE.decode(buffer, 5, appliedLength)).isEqualTo(applied);
  }

  @Test
  void shouldRejectOtherLengthsAndTags() {
    assertThatThrownBy(() -> CreditMarkerCodec.INSTANCE.decode(new UnsafeBuffer(new byte[9]), 0, 9))
        .hasMessage(
            "Expected a credit marker of 8 bytes (applied) or 9 bytes starting with 1 (refused),"
                + " but got 9 bytes starting with 0");
    assertThatThrownBy(() -> CreditMarkerCodec.INSTANCE.decode(new UnsafeBuffer(new byte[4]), 0, 4))
        .hasMessageContaining("but got 4 bytes");
  }

  private static byte[] bytes(ExpandableArrayBuffer buffer, int length) {
    return bytes(buffer, 0, length);
  }

  private static byte[] bytes(ExpandableArrayBuffer buffer, int offset, int length) {
    byte[] bytes = new byte[length];
    buffer.getBytes(offset, bytes);
    return bytes;
  }
}
