package io.cairn.snapshot.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The checksum file format: round trips, and any torn or damaged file is rejected (so a directory
 * with one is never taken for a snapshot). Seeds are fixed.
 */
final class ChecksumFileTest {

  private static final long SEED = 0xC4C5_F11EL;
  private static final Gen<ChecksumFile> FILES =
      lists()
          .of(
              integers()
                  .between(0, 999_999)
                  .zip(
                      longs().between(0, 1L << 40),
                      longs().between(0, 0xFFFF_FFFFL),
                      (n, size, crc) ->
                          Map.entry(
                              String.format("%06d.sst", n), new ChecksumFile.Entry(size, crc))))
          .ofSizeBetween(0, 12)
          .map(
              entries -> {
                TreeMap<String, ChecksumFile.Entry> map = new TreeMap<>();
                entries.forEach(e -> map.put(e.getKey(), e.getValue()));
                map.put(SnapshotLayout.METADATA_FILE, new ChecksumFile.Entry(200, 7));
                return new ChecksumFile(map);
              });

  @Test
  void shouldRoundTrip() {
    qt().withFixedSeed(SEED)
        .withExamples(500)
        .forAll(FILES)
        .checkAssert(file -> assertThat(ChecksumFile.decode(file.encode())).isEqualTo(file));
  }

  @Test
  void shouldRejectEveryTruncation() {
    qt().withFixedSeed(SEED + 1)
        .withExamples(100)
        .forAll(FILES)
        .checkAssert(
            file -> {
              byte[] content = file.encode();
              for (int length = 0; length < content.length; length++) {
                byte[] torn = Arrays.copyOf(content, length);
                assertThatThrownBy(() -> ChecksumFile.decode(torn))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("Expected a valid snapshot checksum file, but");
              }
            });
  }

  @Test
  void shouldRejectEverySingleBitFlip() {
    qt().withFixedSeed(SEED + 2)
        .withExamples(30)
        .forAll(FILES)
        .checkAssert(
            file -> {
              byte[] content = file.encode();
              for (int bit = 0; bit < content.length * 8; bit++) {
                byte[] damaged = content.clone();
                damaged[bit / 8] ^= (byte) (1 << (bit % 8));
                assertThatThrownBy(() -> ChecksumFile.decode(damaged))
                    .isInstanceOf(IllegalArgumentException.class);
              }
            });
  }

  @Test
  void shouldWriteTheDocumentedFormat() {
    ChecksumFile file =
        new ChecksumFile(
            Map.of(
                "CURRENT",
                new ChecksumFile.Entry(16, 0xABCDEFL),
                SnapshotLayout.METADATA_FILE,
                new ChecksumFile.Entry(0, 0)));
    String text = new String(file.encode(), StandardCharsets.US_ASCII);
    List<String> lines = text.lines().toList();
    assertThat(lines.subList(0, 3))
        .containsExactly(
            "cairn-snapshot-checksums 1", "00abcdef 16 CURRENT", "00000000 0 metadata.json");
    assertThat(lines.get(3)).matches("end 2 [0-9a-f]{8}");
  }

  @Test
  void shouldRejectUnsortedDuplicateOrUnsafeNames() {
    assertThatThrownBy(() -> new ChecksumFile(Map.of("../escape", new ChecksumFile.Entry(1, 1))))
        .isInstanceOf(IllegalArgumentException.class);
    String unsorted = "cairn-snapshot-checksums 1\n00000001 1 b\n00000001 1 a\n";
    byte[] body = unsorted.getBytes(StandardCharsets.US_ASCII);
    byte[] content =
        (unsorted + "end 2 " + ChecksumFile.hex(ChecksumFile.crc32c(body)) + "\n")
            .getBytes(StandardCharsets.US_ASCII);
    assertThatThrownBy(() -> ChecksumFile.decode(content))
        .hasMessageContaining("not in name order");
  }
}
