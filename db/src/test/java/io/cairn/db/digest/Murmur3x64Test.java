package io.cairn.db.digest;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.db.Digest128;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Known answers of MurmurHash3_x64_128 (h1, h2), covering every tail length class. */
final class Murmur3x64Test {

  @ParameterizedTest(name = "\"{0}\" seed {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "|0|0000000000000000|0000000000000000",
        "|42|f02aa77dfa1b8523|d1016610da11cbb9",
        "a|0|85555565f6597889|e6b53a48510e895a",
        "a|42|28259ca4fdf626b0|25ebca9125f82b15",
        "hello|0|cbd8a7b341bd9b02|5b1e906a48ae1d19",
        "The quick brown fox jumps over the lazy dog|0|e34bbc7bbc071b6c|7a433ca9c49a9347",
        "The quick brown fox jumps over the lazy dog|42|740dcf93fe0bd5d7|c4546cf4ec705c8f",
        "0123456789abcde|0|a62dd5f6c0bf2351|4fccf50c7c544cf0",
        "0123456789abcdef|0|4be06d94cf4ad1a7|87c35b5c63a708da",
        "0123456789abcdef0|0|eb24ae8785a5c075|73fb68b3313128ca",
        "0123456789abcdef0|42|66fb2273f71d63e3|c5a33661978eeeee",
        "0123456789abcdef0123456789abcde|0|9afbac977e4daf00|89fe4cda7efd8251",
        "0123456789abcdef0123456789abcde|42|ff35ea9e6fa8e36a|e709da458e4b5796",
      })
  void shouldMatchKnownAnswers(String input, int seed, String h1, String h2) {
    byte[] bytes = (input == null ? "" : input).getBytes(StandardCharsets.UTF_8);

    Digest128 hash = Murmur3x64.hash128(bytes, 0, bytes.length, seed);

    assertThat(hash).isEqualTo(Digest128.fromHex(h1 + h2));
  }

  @Test
  void shouldHashEveryByteValueAtAnOffset() {
    byte[] bytes = new byte[3 + 256];
    for (int i = 0; i < 256; i++) {
      bytes[3 + i] = (byte) i;
    }

    Digest128 hash = Murmur3x64.hash128(bytes, 3, 256, 0);

    assertThat(hash).isEqualTo(Digest128.fromHex("1c99c313dc6f12b970d6077fab34cc1e"));
  }
}
