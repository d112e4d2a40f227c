package io.cairn.backupapi.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.content.MasterKeyRing;
import io.cairn.backupapi.content.SegmentedCipher;
import io.cairn.backuptestkit.ManifestTampering;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;

/** The encryption block of a COMPLETED manifest (format 1.3) and its MAC. */
class ManifestEncryptionTest {

  private static final String SOURCE = "manifests/2/9/1/manifest.json";
  private static final BackupIdentifier ID = new BackupIdentifier(1, 2, 9);
  private static final Instant T0 = Instant.parse("2025-03-01T10:00:00Z");
  private static final SecretKey DATA_KEY = MasterKeyRing.newDataKey(new SecureRandom());
  private static final String WRAPPED =
      Base64.getEncoder().encodeToString(new byte[MasterKeyRing.WRAPPED_BYTES]);

  private final ManifestCodec codec = new ManifestCodec();

  private static final BackupDescriptor DESCRIPTOR =
      new BackupDescriptor(9, 2, 1, 12_345, Optional.of("snap-8"), 3, "0.1.0", "00ff", 2, 300_016);

  private static List<ManifestFile> snapshot() {
    return List.of(
        new ManifestFile(
            "CURRENT", 16, 0xDEADBEEFL, SegmentedCipher.encryptedSize(16), Compression.NONE),
        new ManifestFile("000012.sst", 300_000, 0x01020304L, 51_234, Compression.ZSTD));
  }

  private static Manifest encrypted() {
    String mac =
        ManifestMac.compute(DATA_KEY, ID, DESCRIPTOR, snapshot(), List.of(), "k1", WRAPPED);
    return Manifest.inProgress(DESCRIPTOR, T0)
        .complete(
            snapshot(),
            List.of(),
            Optional.of(new ManifestEncryption("k1", WRAPPED, mac)),
            T0.plusSeconds(1));
  }

  @Test
  void shouldRoundTripTheEncryptionBlockAndAuthenticateIt() {
    Manifest manifest = encrypted();

    Manifest decoded = codec.decode(codec.encode(manifest), SOURCE);

    assertThat(decoded).isEqualTo(manifest);
    assertThat(new String(codec.encode(manifest), StandardCharsets.UTF_8))
        .contains("\"manifestVersion\" : \"1.3\"")
        .contains("\"keyId\" : \"k1\"");
    assertThat(ManifestMac.matches(DATA_KEY, decoded)).isTrue();
    assertThat(ManifestMac.matches(MasterKeyRing.newDataKey(new SecureRandom()), decoded))
        .as("another data key")
        .isFalse();
  }

  @Test
  void shouldNotAuthenticateAManifestWhoseFilesOrDescriptorChanged() {
    String json = new String(codec.encode(encrypted()), StandardCharsets.UTF_8);
    for (String[] edit :
        new String[][] {
          {"\"crc32c\" : \"deadbeef\"", "\"crc32c\" : \"deadbeee\""},
          {"\"stateDigest\" : \"00ff\"", "\"stateDigest\" : \"00fe\""},
          {"\"checkpointPosition\" : 12345", "\"checkpointPosition\" : 12346"},
        }) {
      assertThat(json).contains(edit[0]);
      Manifest changed =
          codec.decode(
              ManifestTampering.reseal(json.replace(edit[0], edit[1]))
                  .getBytes(StandardCharsets.UTF_8),
              SOURCE);
      assertThat(ManifestMac.matches(DATA_KEY, changed)).as(edit[1]).isFalse();
    }
  }

  @Test
  void shouldRefuseInvalidEncryptionFieldsNamingThem() {
    String json = new String(codec.encode(encrypted()), StandardCharsets.UTF_8);
    for (String[] edit :
        new String[][] {
          {"\"keyId\" : \"k1\"", "\"keyId\" : \"k 1\"", "encryption.keyId"},
          {
            "\"manifestMac\" : \"hmac-sha256:", "\"manifestMac\" : \"md5:", "encryption.manifestMac"
          },
          {"\"wrappedDataKey\" : \"", "\"wrappedDataKey\" : \"AAAA", "encryption.wrappedDataKey"},
        }) {
      byte[] bad =
          ManifestTampering.reseal(json.replace(edit[0], edit[1])).getBytes(StandardCharsets.UTF_8);
      assertThatThrownBy(() -> codec.decode(bad, SOURCE))
          .as(edit[2])
          .isInstanceOf(ManifestException.class)
          .hasMessageContaining(edit[2])
          .hasMessageContaining(SOURCE);
    }
  }

  @Test
  void shouldRequireEncryptedSizesForUncompressedFilesOfAnEncryptedManifest() {
    List<ManifestFile> plainSizes =
        List.of(new ManifestFile("CURRENT", 16, 1L, 16, Compression.NONE));
    var descriptor =
        new BackupDescriptor(9, 2, 1, 12_345, Optional.empty(), 3, "0.1.0", "00ff", 1, 16);

    assertThatThrownBy(
            () ->
                Manifest.inProgress(descriptor, T0)
                    .complete(
                        plainSizes,
                        List.of(),
                        Optional.of(
                            new ManifestEncryption("k1", WRAPPED, "hmac-sha256:" + "0".repeat(64))),
                        T0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("storedSizeBytes " + SegmentedCipher.encryptedSize(16))
        .hasMessageContaining("'CURRENT'");
  }
}
