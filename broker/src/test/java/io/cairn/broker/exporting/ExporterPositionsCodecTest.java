package io.cairn.broker.exporting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class ExporterPositionsCodecTest {

  @Test
  void shouldDecodeWhatItEncodedForRandomPositions() {
    long seed = 20_260_117L;
    SplittableRandom random = new SplittableRandom(seed);
    for (int run = 0; run < 200; run++) {
      Map<String, Long> positions = new LinkedHashMap<>();
      int count = random.nextInt(0, 8);
      for (int i = 0; i < count; i++) {
        positions.put("exporter-" + random.nextInt(1_000), random.nextLong(-1, Long.MAX_VALUE));
      }
      int partitionId = random.nextInt(1, 1000);

      ExporterPositionsCodec.Message decoded =
          ExporterPositionsCodec.decode(ExporterPositionsCodec.encode(partitionId, positions));

      assertThat(decoded.partitionId()).as("seed %d, run %d", seed, run).isEqualTo(partitionId);
      assertThat(decoded.positions()).as("seed %d, run %d", seed, run).isEqualTo(positions);
    }
  }

  @Test
  void shouldRejectTruncatedAndOverlongMessages() {
    byte[] full = ExporterPositionsCodec.encode(3, Map.of("files", 42L));

    assertThatThrownBy(() -> ExporterPositionsCodec.decode(Arrays.copyOf(full, full.length - 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ends early");
    assertThatThrownBy(() -> ExporterPositionsCodec.decode(Arrays.copyOf(full, full.length + 1)))
        .hasMessageContaining("1 bytes follow");
    byte[] future = full.clone();
    future[0] = 2;
    assertThatThrownBy(() -> ExporterPositionsCodec.decode(future))
        .hasMessageContaining("version 1, but got 2");
  }
}
