package io.cairn.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

final class Digest128Test {

  private static final long SEED = 0xD16E_5712_8000L;
  private static final BigInteger MODULUS = BigInteger.ONE.shiftLeft(128);

  @Test
  void shouldCarryIntoTheHighHalf() {
    assertThat(new Digest128(0, -1).plus(new Digest128(0, 1))).isEqualTo(new Digest128(1, 0));
  }

  @Test
  void shouldWrapModulo2To128() {
    assertThat(new Digest128(-1, -1).plus(new Digest128(0, 1))).isEqualTo(Digest128.ZERO);
    assertThat(Digest128.ZERO.minus(new Digest128(0, 1))).isEqualTo(new Digest128(-1, -1));
  }

  @Test
  void shouldAddLikeUnsigned128BitIntegers() {
    qt().withFixedSeed(SEED)
        .withExamples(2000)
        .forAll(longs().all(), longs().all(), longs().all(), longs().all())
        .checkAssert(
            (ah, al, bh, bl) -> {
              Digest128 a = new Digest128(ah, al);
              Digest128 b = new Digest128(bh, bl);

              assertThat(toBig(a.plus(b))).isEqualTo(toBig(a).add(toBig(b)).mod(MODULUS));
              assertThat(toBig(a.minus(b))).isEqualTo(toBig(a).subtract(toBig(b)).mod(MODULUS));
              assertThat(a.plus(b).minus(b)).isEqualTo(a);
            });
  }

  @Test
  void shouldRoundTripHex() {
    qt().withFixedSeed(SEED + 1)
        .withExamples(500)
        .forAll(longs().all(), longs().all())
        .checkAssert(
            (high, low) -> {
              Digest128 digest = new Digest128(high, low);

              assertThat(digest.toHex()).hasSize(32);
              assertThat(Digest128.fromHex(digest.toHex())).isEqualTo(digest);
              assertThat(new BigInteger(digest.toHex(), 16)).isEqualTo(toBig(digest));
            });
  }

  @Test
  void shouldRejectMalformedHex() {
    assertThatThrownBy(() -> Digest128.fromHex("abc"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected a digest of 32 hex digits, but was 'abc'");
    assertThatThrownBy(() -> Digest128.fromHex("z".repeat(32)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static BigInteger toBig(Digest128 digest) {
    return new BigInteger(Long.toUnsignedString(digest.high()))
        .shiftLeft(64)
        .add(new BigInteger(Long.toUnsignedString(digest.low())));
  }
}
