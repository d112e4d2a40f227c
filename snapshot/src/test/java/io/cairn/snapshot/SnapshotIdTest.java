package io.cairn.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quicktheories.core.Gen;

/** Text form round trips, strict parsing, and the order of ids. Seeds are fixed. */
final class SnapshotIdTest {

  private static final long SEED = 0x5A9_1D00L;
  private static final Gen<SnapshotId> IDS =
      longs()
          .between(1, Long.MAX_VALUE)
          .zip(
              longs().between(1, Long.MAX_VALUE),
              longs().between(0, Long.MAX_VALUE),
              longs().between(0, Long.MAX_VALUE),
              SnapshotId::new);

  @Test
  void shouldRoundTripEveryIdThroughItsDirectoryName() {
    qt().withFixedSeed(SEED)
        .withExamples(2000)
        .forAll(IDS)
        .checkAssert(id -> assertThat(SnapshotId.parse(id.toString())).isEqualTo(id));
  }

  @Test
  void shouldAcceptOnlyNamesThatRoundTrip() {
    qt().withFixedSeed(SEED + 1)
        .withExamples(2000)
        .forAll(strings().ascii().ofLengthBetween(0, 12))
        .checkAssert(
            name ->
                SnapshotId.tryParse(name)
                    .ifPresent(id -> assertThat(id.toString()).isEqualTo(name)));
  }

  @Test
  void shouldOrderByIndexThenTermThenProcessedThenWrittenPosition() {
    SnapshotId base = new SnapshotId(10, 2, 100, 105);
    assertThat(new SnapshotId(11, 1, 0, 0)).isGreaterThan(base);
    assertThat(new SnapshotId(10, 3, 0, 0)).isGreaterThan(base);
    assertThat(new SnapshotId(10, 2, 101, 0)).isGreaterThan(base);
    assertThat(new SnapshotId(10, 2, 100, 106)).isGreaterThan(base);
    assertThat(new SnapshotId(10, 2, 100, 105)).isEqualByComparingTo(base);
    assertThat(base.isNewerThan(new SnapshotId(9, 9, 999, 999))).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "1-1-1",
        "1-1-1-1-1",
        "0-1-1-1",
        "1-0-1-1",
        "01-1-1-1",
        "1-1--1-1",
        "1-1-+1-1",
        "1-1-1-1 ",
        "a-1-1-1",
        "1-1-1-99999999999999999999",
        "1-1-1-9223372036854775808"
      })
  void shouldRejectMalformedNames(String name) {
    assertThat(SnapshotId.tryParse(name)).isEmpty();
    assertThatThrownBy(() -> SnapshotId.parse(name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected a snapshot id")
        .hasMessageContaining("'" + name + "'");
  }

  @Test
  void shouldRejectOutOfRangeValues() {
    assertThatThrownBy(() -> new SnapshotId(0, 1, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected index >= 1, term >= 1 and positions >= 0, but was index=0");
    assertThatThrownBy(() -> new SnapshotId(1, 1, -1, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
