package io.cairn.snapshot.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.snapshot.SnapshotMetadata;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class MetadataCodecTest {

  private static final SnapshotMetadata METADATA =
      new SnapshotMetadata(
          42, 3, 1200, 1100, 1203, "0.1.0", 1_767_225_600_000L, "0f3a0000000000000000000000000001");

  @Test
  void shouldRoundTripEveryField() {
    assertThat(MetadataCodec.decode(MetadataCodec.encode(METADATA))).isEqualTo(METADATA);
    assertThat(new String(MetadataCodec.encode(METADATA), StandardCharsets.UTF_8))
        .contains("\"version\" : 1")
        .contains("\"lastWrittenPosition\" : 1203")
        .contains("\"stateDigest\" : \"0f3a0000000000000000000000000001\"");
  }

  @Test
  void shouldIgnoreUnknownFieldsButRejectMissingMistypedOrOtherVersion() {
    String json = new String(MetadataCodec.encode(METADATA), StandardCharsets.UTF_8);
    assertThat(decode(json.replace("{", "{ \"future\" : true,"))).isEqualTo(METADATA);
    assertThatThrownBy(() -> decode(json.replace("\"version\" : 1", "\"version\" : 2")))
        .hasMessageContaining("its version is 2");
    assertThatThrownBy(() -> decode(json.replace("\"term\" : 3,", "")))
        .hasMessageContaining("field 'term' is missing");
    assertThatThrownBy(() -> decode(json.replace("\"term\" : 3", "\"term\" : \"3\"")))
        .hasMessageContaining("field 'term'");
    assertThatThrownBy(() -> decode(json.replace("\"index\" : 42", "\"index\" : 0")))
        .hasMessageContaining("out of range");
    assertThatThrownBy(() -> decode("[1]")).hasMessageContaining("not a JSON object");
    assertThatThrownBy(() -> decode("{\"vers")).hasMessageContaining("not JSON");
  }

  private static SnapshotMetadata decode(String json) {
    return MetadataCodec.decode(json.getBytes(StandardCharsets.UTF_8));
  }
}
