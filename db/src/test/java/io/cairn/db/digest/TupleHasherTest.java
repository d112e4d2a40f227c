package io.cairn.db.digest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class TupleHasherTest {

  private final TupleHasher hasher = new TupleHasher();

  @Test
  void shouldHashTheLengthPrefixedTuple() {
    byte[] family = bytes("accounts");
    byte[] key = {1, 2, 3};
    byte[] value = bytes("balance=10");
    ByteBuffer expected =
        ByteBuffer.allocate(4 + family.length + 4 + key.length + value.length)
            .putInt(family.length)
            .put(family)
            .putInt(key.length)
            .put(key)
            .put(value);

    assertThat(hasher.hash(family, key, value))
        .isEqualTo(Murmur3x64.hash128(expected.array(), 0, expected.capacity(), 0));
  }

  @Test
  void shouldSeparateKeyFromValue() {
    byte[] family = bytes("f");

    assertThat(hasher.hash(family, bytes("ab"), bytes("c")))
        .isNotEqualTo(hasher.hash(family, bytes("a"), bytes("bc")));
  }

  @Test
  void shouldSeparateFamilyFromKey() {
    assertThat(hasher.hash(bytes("ab"), bytes("c"), bytes("v")))
        .isNotEqualTo(hasher.hash(bytes("a"), bytes("bc"), bytes("v")));
  }

  @Test
  void shouldGiveTheSameHashForTheSameTupleAfterLongerOnes() {
    byte[] family = bytes("f");
    var first = hasher.hash(family, bytes("k"), bytes("v"));
    hasher.hash(family, new byte[1000], new byte[5000]);

    assertThat(hasher.hash(family, bytes("k"), bytes("v"))).isEqualTo(first);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
