package io.cairn.broker.interpartition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.broker.interpartition.InterPartitionCodec.Status;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class InterPartitionCodecTest {

  private static final Record APPLY =
      new Record(
          RecordMetadata.builder().command(CreditIntent.APPLY).key(77).checkpointId(12).build(),
          new CreditValue((1L << 48) | 5, "bob", 250, 1, 3));

  @Test
  void shouldRoundTripACommandWithItsCheckpointId() {
    InterPartitionCodec.Request request =
        InterPartitionCodec.decodeRequest(InterPartitionCodec.encodeRequest(3, APPLY));

    assertThat(request.targetPartitionId()).isEqualTo(3);
    assertThat(request.command()).isEqualTo(APPLY);
    assertThat(request.command().metadata().checkpointId()).isEqualTo(12);
  }

  @Test
  void shouldRoundTripEveryResponse() {
    for (Status status : Status.values()) {
      assertThat(InterPartitionCodec.decodeResponse(InterPartitionCodec.encodeResponse(status, 2)))
          .isEqualTo(new InterPartitionCodec.Response(status, 2));
    }
  }

  @Test
  void shouldRefuseOtherVersionsTruncationAndUnknownStatuses() {
    byte[] request = InterPartitionCodec.encodeRequest(3, APPLY);
    byte[] otherVersion = request.clone();
    otherVersion[0] = 2;
    assertThatThrownBy(() -> InterPartitionCodec.decodeRequest(otherVersion))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("Expected version 1, but was 2");
    assertThatThrownBy(() -> InterPartitionCodec.decodeRequest(new byte[] {1, 0}))
        .isInstanceOf(ProtocolException.class);
    byte[] response = InterPartitionCodec.encodeResponse(Status.WRITTEN, -1);
    response[1] = 9;
    assertThatThrownBy(() -> InterPartitionCodec.decodeResponse(response))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("Expected a status code in [0, 3], but was 9");
  }

  @Test
  void shouldThrowOnlyProtocolExceptionsForTruncatedOrFlippedRequests() {
    // seeded: every prefix and 500 random byte flips decode or fail with ProtocolException
    long seed = Long.getLong("cairn.seed", 20_251_129L);
    SplittableRandom random = new SplittableRandom(seed);
    byte[] request = InterPartitionCodec.encodeRequest(3, APPLY);
    for (int length = 0; length < request.length; length++) {
      byte[] prefix = Arrays.copyOf(request, length);
      assertThatThrownBy(() -> InterPartitionCodec.decodeRequest(prefix))
          .as("prefix of %s bytes (seed %s)", length, seed)
          .isInstanceOf(ProtocolException.class);
    }
    for (int i = 0; i < 500; i++) {
      byte[] flipped = request.clone();
      flipped[random.nextInt(flipped.length)] ^= (byte) (1 + random.nextInt(255));
      try {
        InterPartitionCodec.decodeRequest(flipped);
      } catch (ProtocolException expected) {
        // refused: fine
      } catch (RuntimeException e) {
        throw new AssertionError("flip " + i + " threw " + e + " (seed " + seed + ")", e);
      }
    }
  }
}
