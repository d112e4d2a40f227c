package io.cairn.broker.exporting;

import static io.cairn.fuzz.DecoderContract.decodesOrRefuses;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Exporter positions sent by a partition's leader to its followers. In the codec's package because
 * the codec is internal to the broker.
 */
class ExporterPositionsFuzzTest {

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void positions(byte[] input) {
    decodesOrRefuses(
        input, IllegalArgumentException.class, () -> ExporterPositionsCodec.decode(input));
  }
}
