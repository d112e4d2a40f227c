package io.cairn.fuzz;

import static io.cairn.fuzz.DecoderContract.decodesOrRefuses;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.RecordBatchCodec;
import io.cairn.protocol.RecordCodec;
import io.cairn.protocol.api.AccountQueryCodec;
import io.cairn.protocol.api.BackupCodec;
import io.cairn.protocol.api.BackupScheduleCodec;
import io.cairn.protocol.api.CommandCodec;
import io.cairn.protocol.api.ExportingCodec;
import io.cairn.protocol.api.RestoreCodec;
import io.cairn.protocol.api.RestorePointsCodec;
import io.cairn.protocol.api.TopologyCodec;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Timeout;

/**
 * Records and batches (the log, inter-partition commands, backups' segments) and every message of
 * the broker API. Decoding either succeeds or throws {@link ProtocolException}; the property tests
 * in {@code protocol} add that whatever decodes re-encodes to the same bytes.
 */
class ProtocolFuzzTest {

  /** Every decoder of the broker API, chosen by an input's first byte. */
  static final List<DecoderContract.Decoding.Of> API_DECODERS =
      List.of(
          CommandCodec::decodeRequest,
          CommandCodec::decodeResponse,
          AccountQueryCodec::decodeRequest,
          AccountQueryCodec::decodeResponse,
          TopologyCodec::decodeRequest,
          TopologyCodec::decodeResponse,
          BackupCodec::decodeRequest,
          BackupCodec::decodeResponse,
          ExportingCodec::decodeRequest,
          ExportingCodec::decodeResponse,
          BackupScheduleCodec::decodeRequest,
          BackupScheduleCodec::decodeResponse,
          RestoreCodec::decodeRequest,
          RestoreCodec::decodeResponse,
          RestorePointsCodec::decodeRequest,
          RestorePointsCodec::decodeResponse);

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void records(byte[] input) {
    UnsafeBuffer buffer = new UnsafeBuffer(input);
    decodesOrRefuses(
        input, ProtocolException.class, () -> RecordCodec.decode(buffer, 0, input.length));
    decodesOrRefuses(
        input, ProtocolException.class, () -> RecordBatchCodec.decode(buffer, 0, input.length));
  }

  /** The first byte picks the decoder (see {@link #API_DECODERS}), the rest is its payload. */
  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void apiMessages(byte[] input) {
    if (input.length == 0) {
      return;
    }
    var decoder = API_DECODERS.get(Byte.toUnsignedInt(input[0]) % API_DECODERS.size());
    byte[] payload = Arrays.copyOfRange(input, 1, input.length);
    decodesOrRefuses(payload, ProtocolException.class, () -> decoder.decode(payload));
  }
}
