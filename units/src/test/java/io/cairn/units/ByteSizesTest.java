package io.cairn.units;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ByteSizesTest {

  @Test
  void shouldReadEveryUnitInPowersOf1024() {
    assertThat(ByteSizes.parse("4096")).hasValue(4096);
    assertThat(ByteSizes.parse("10B")).hasValue(10);
    assertThat(ByteSizes.parse("64kb")).hasValue(64L << 10);
    assertThat(ByteSizes.parse("8K")).hasValue(8L << 10);
    assertThat(ByteSizes.parse("128MB")).hasValue(128L << 20);
    assertThat(ByteSizes.parse("1GiB")).hasValue(1L << 30);
    assertThat(ByteSizes.parse(" 2 TB ")).hasValue(2L << 40);
    assertThat(ByteSizes.parse("0")).hasValue(0);
  }

  @Test
  void shouldRefuseWhatIsNotInTheGrammar() {
    assertThat(ByteSizes.parse("5i")).isEmpty();
    assertThat(ByteSizes.parse("1PB")).isEmpty();
    assertThat(ByteSizes.parse("-1")).isEmpty();
    assertThat(ByteSizes.parse("1.5MB")).isEmpty();
    assertThat(ByteSizes.parse("")).isEmpty();
    assertThat(ByteSizes.parse(null)).isEmpty();
    assertThat(ByteSizes.parse("99999999999999TB")).as("beyond a long").isEmpty();
  }

  @Test
  void shouldPrintTheLargestExactUnit() {
    assertThat(ByteSizes.formatExact(0)).isEqualTo("0");
    assertThat(ByteSizes.formatExact(1000)).isEqualTo("1000B");
    assertThat(ByteSizes.formatExact(4096)).isEqualTo("4KB");
    assertThat(ByteSizes.formatExact(128L << 20)).isEqualTo("128MB");
    assertThat(ByteSizes.formatExact(3L << 40)).isEqualTo("3TB");
    assertThat(ByteSizes.formatExact(1L << 50)).isEqualTo("1024TB");
  }

  @Test
  void shouldReadBackEveryExactForm() {
    long seed = Long.getLong("cairn.seed", System.nanoTime());
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 10_000; i++) {
      long bytes = random.nextLong(0, 1_000_000) << (10 * random.nextInt(5));
      String text = ByteSizes.formatExact(bytes);
      assertThat(ByteSizes.parse(text))
          .as("%s read back (seed %d: -Dcairn.seed=%d)", text, seed, seed)
          .hasValue(bytes);
    }
  }
}
