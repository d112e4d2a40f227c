package io.cairn.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

final class StateDigestTest {

  private static final Digest128 A = Digest128.fromHex("0000000000000001ffffffffffffffff");
  private static final Digest128 B = Digest128.fromHex("00000000000000000000000000000002");

  @Test
  void shouldSumFamiliesIntoTheTotal() {
    StateDigest digest = StateDigest.of(Map.of("accounts", A, "transfers", B));

    assertThat(digest.total()).isEqualTo(Digest128.fromHex("00000000000000020000000000000001"));
    assertThat(digest.toHex()).isEqualTo("00000000000000020000000000000001");
    assertThat(digest.families())
        .containsExactly(Map.entry("accounts", A), Map.entry("transfers", B));
  }

  @Test
  void shouldNameTheFamiliesThatDiffer() {
    StateDigest left = StateDigest.of(Map.of("accounts", A, "transfers", B, "only.left", A));
    StateDigest right = StateDigest.of(Map.of("accounts", A, "transfers", A, "only.right", B));

    assertThat(left.differingFamilies(right))
        .containsExactly("only.left", "only.right", "transfers");
    assertThat(left).isNotEqualTo(right);
    assertThat(left.differingFamilies(StateDigest.of(left.families()))).isEmpty();
    assertThat(left).isEqualTo(StateDigest.of(left.families()));
    assertThat(left.hashCode()).isEqualTo(StateDigest.of(left.families()).hashCode());
  }

  @Test
  void shouldRoundTripItsBinaryForm() {
    StateDigest digest = StateDigest.of(Map.of("accounts", A, "transfers", B, "é", A));
    ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();

    int written = StateDigestCodec.write(digest, buffer, 5);

    assertThat(written).isEqualTo(StateDigestCodec.lengthBytes(digest));
    assertThat(StateDigestCodec.read(buffer, 5, written)).isEqualTo(digest);
    assertThat(
            StateDigestCodec.read(buffer, 5, StateDigestCodec.write(StateDigest.EMPTY, buffer, 5)))
        .isEqualTo(StateDigest.EMPTY);
  }

  @Test
  void shouldRejectTruncatedOrUnknownBinaryForms() {
    StateDigest digest = StateDigest.of(Map.of("accounts", A));
    ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
    int written = StateDigestCodec.write(digest, buffer, 0);

    assertThatThrownBy(() -> StateDigestCodec.read(buffer, 0, written - 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected a state digest of 1 families");
    buffer.putByte(0, (byte) 9);
    assertThatThrownBy(() -> StateDigestCodec.read(buffer, 0, written))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("version 9");
  }

  @Test
  void shouldRefuseAFamilyItDoesNotCover() {
    assertThatThrownBy(() -> StateDigest.of(Map.of("accounts", A)).family("transfers"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'transfers'")
        .hasMessageContaining("[accounts]");
  }
}
