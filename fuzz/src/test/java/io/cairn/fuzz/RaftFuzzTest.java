package io.cairn.fuzz;

import static io.cairn.fuzz.DecoderContract.decodesOrRefuses;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.raft.protocol.RaftMessageCodec;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Timeout;

/**
 * Raft messages (read from any peer that connects) and raft entries (read from the journal, and
 * from a backup's segments at restore): either decoded or refused with {@link
 * IllegalArgumentException}, which the raft server logs and drops.
 */
class RaftFuzzTest {

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void messages(byte[] input) {
    decodesOrRefuses(input, IllegalArgumentException.class, () -> RaftMessageCodec.decode(input));
  }

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void entries(byte[] input) {
    UnsafeBuffer buffer = new UnsafeBuffer(input);
    decodesOrRefuses(input, IllegalArgumentException.class, () -> RaftEntryCodec.decode(buffer));
    decodesOrRefuses(input, IllegalArgumentException.class, () -> RaftEntryCodec.term(buffer));
    decodesOrRefuses(
        input, IllegalArgumentException.class, () -> RaftEntryCodec.highestPosition(buffer));
  }
}
