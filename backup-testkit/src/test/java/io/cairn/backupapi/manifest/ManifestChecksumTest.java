package io.cairn.backupapi.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.ManifestException;
import io.cairn.backuptestkit.ManifestTampering;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ManifestChecksumTest {

  private static final String SOURCE = "manifests/2/9/1/manifest.json";
  private static final BackupIdentifier ID = new BackupIdentifier(1, 2, 9);
  private static final Instant T0 = Instant.parse("2025-03-01T10:00:00Z");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final ManifestCodec codec = new ManifestCodec();

  private static BackupDescriptor descriptor() {
    var families = new TreeMap<String, String>();
    families.put("LEDGER_ACCOUNTS", "0000000000000000000000000000000a");
    families.put("LEDGER_TRANSFERS", "000000000000000000000000000000f5");
    return new BackupDescriptor(
        9,
        2,
        1,
        12_345,
        Optional.of("snap-8"),
        3,
        "0.1.0",
        "000000000000000000000000000000ff",
        3,
        900_016,
        families);
  }

  private static Manifest completed() {
    var snapshot =
        List.of(
            new ManifestFile("CURRENT", 16, 0xDEADBEEFL, 16, Compression.NONE),
            new ManifestFile("meta/000012.sst", 300_000, 0x01020304L, 51_234, Compression.ZSTD));
    var segments = List.of(new ManifestFile("1.log", 600_000, 0L, 600_000, Compression.NONE));
    return Manifest.inProgress(descriptor(), T0)
        .complete(snapshot, segments, Optional.empty(), T0.plusSeconds(3));
  }

  private static List<Manifest> everyState() {
    Manifest inProgress = Manifest.inProgress(descriptor(), T0);
    return List.of(
        completed(),
        inProgress,
        inProgress.fail("leader \"2\" changed ü\n\tagain", T0.plusSeconds(9)),
        Manifest.failedWithoutDescriptor(ID, "marked", T0));
  }

  /** The checksum computed here from the format's definition, not with the production code. */
  private static String expectedChecksum(byte[] json) throws Exception {
    ObjectNode tree = (ObjectNode) MAPPER.readTree(json);
    tree.remove("manifestChecksum");
    var crc = new CRC32C();
    crc.update(MAPPER.writeValueAsBytes(tree));
    return "crc32c:" + HexFormat.of().toHexDigits((int) crc.getValue());
  }

  private static String recordedChecksum(byte[] json) throws Exception {
    return MAPPER.readTree(json).get("manifestChecksum").asText();
  }

  private static byte[] replace(byte[] json, String from, String to) {
    String text = new String(json, StandardCharsets.UTF_8);
    assertThat(text).contains(from);
    return text.replace(from, to).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void shouldSealEveryEncodedManifestWithTheChecksumOfItsCompactContent() throws Exception {
    for (Manifest manifest : everyState()) {
      byte[] json = codec.encode(manifest);

      assertThat(recordedChecksum(json))
          .matches("crc32c:[0-9a-f]{8}")
          .isEqualTo(expectedChecksum(json));
      assertThat(MAPPER.readTree(json).fieldNames())
          .toIterable()
          .startsWith("manifestVersion", "manifestChecksum");
      assertThat(codec.decode(json, SOURCE)).isEqualTo(manifest);
    }
  }

  @Test
  void shouldRefuseEverySingleBitFlipOfEncodedManifestsNamingTheManifest() {
    int refused = 0;
    int byChecksum = 0;
    for (Manifest manifest : everyState()) {
      byte[] json = codec.encode(manifest);
      for (int position = 0; position < json.length; position++) {
        for (int bit = 0; bit < 8; bit++) {
          ManifestException e = decodeFlipped(json, position, bit, "manifest " + manifest.status());
          refused++;
          if (e.getMessage().contains("to match the manifest's content")) {
            byChecksum++;
          }
        }
      }
    }

    // the checksum is what refuses the flips that leave valid JSON with valid fields
    assertThat(byChecksum).isGreaterThan(100).isLessThan(refused);
  }

  @Test
  void shouldRefuseSampledBitFlipsOfSeededRandomManifests() {
    long seed = Long.getLong("cairn.seed", 20_250_612L);
    var random = new Random(seed);
    for (int run = 0; run < 40; run++) {
      byte[] json = codec.encode(randomManifest(random));
      for (int flip = 0; flip < 200; flip++) {
        decodeFlipped(
            json,
            random.nextInt(json.length),
            random.nextInt(8),
            "seed " + seed + " (-Dcairn.seed), run " + run + ", flip " + flip);
      }
    }
  }

  /** Without the checksum (format 1.1) some flips decode: the flip tests above can fail. */
  @Test
  void shouldLetSomeFlipsThroughInAManifestWithoutChecksum() {
    byte[] legacy = ManifestTampering.withoutChecksum(codec.encode(completed()), "1.1");
    int decodedDifferently = 0;
    for (int position = 0; position < legacy.length && decodedDifferently <= 100; position++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] flipped = legacy.clone();
        flipped[position] ^= (byte) (1 << bit);
        try {
          if (!codec.decode(flipped, SOURCE).equals(completed())) {
            decodedDifferently++;
          }
        } catch (ManifestException expected) {
          // refused by the other validations
        }
      }
    }

    assertThat(decodedDifferently).isGreaterThan(100);
  }

  private ManifestException decodeFlipped(byte[] json, int position, int bit, String context) {
    byte[] flipped = json.clone();
    flipped[position] ^= (byte) (1 << bit);
    String what =
        context
            + ": bit "
            + bit
            + " of byte "
            + position
            + " ('"
            + (char) json[position]
            + "') flipped";
    ManifestException e =
        catchThrowableOfType(ManifestException.class, () -> codec.decode(flipped, SOURCE));
    assertThat(e).as(what + " must be refused").isNotNull();
    assertThat(e.manifest()).as(what).isEqualTo(SOURCE);
    assertThat(e.getMessage()).as(what).contains(SOURCE);
    return e;
  }

  @Test
  void shouldReportChangedContentWithBothChecksumsAndTheManifest() throws Exception {
    byte[] json = codec.encode(completed());
    byte[] changed =
        replace(json, "\"checkpointPosition\" : 12345", "\"checkpointPosition\" : 12346");

    assertThatThrownBy(() -> codec.decode(changed, SOURCE))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining(
            "Expected manifestChecksum "
                + recordedChecksum(json)
                + " to match the manifest's content, but it is "
                + expectedChecksum(changed)
                + ": the manifest was changed or damaged (manifest "
                + SOURCE
                + ")");
  }

  @Test
  void shouldCoverKeyOrderButNotLayout() throws Exception {
    byte[] json = codec.encode(completed());
    ObjectNode tree = (ObjectNode) MAPPER.readTree(json);
    byte[] compact = MAPPER.writeValueAsBytes(tree);
    ObjectNode reordered = tree.deepCopy();
    reordered.remove("status");
    reordered.put("status", "COMPLETED");

    assertThat(codec.decode(compact, SOURCE)).isEqualTo(completed());
    assertThatThrownBy(() -> codec.decode(MAPPER.writeValueAsBytes(reordered), SOURCE))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("to match the manifest's content");
  }

  @Test
  void shouldVerifyChecksumWhateverTheVersionSays() throws Exception {
    byte[] json = codec.encode(completed());
    byte[] relabelled =
        replace(json, "\"manifestVersion\" : \"1.3\"", "\"manifestVersion\" : \"1.1\"");

    assertThatThrownBy(() -> codec.decode(relabelled, SOURCE))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("to match the manifest's content")
        .hasMessageContaining(SOURCE);
    assertThat(codec.decode(ManifestTampering.reseal(relabelled), SOURCE)).isEqualTo(completed());
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.0", "1.1"})
  void shouldDecodeManifestWithoutChecksumOfAFormatBeforeIt(String version) {
    for (Manifest manifest : everyState()) {
      byte[] legacy = ManifestTampering.withoutChecksum(codec.encode(manifest), version);

      assertThat(new String(legacy, StandardCharsets.UTF_8)).doesNotContain("manifestChecksum");
      assertThat(codec.decode(legacy, SOURCE, manifest.id())).isEqualTo(manifest);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.2", "1.9", "1.123456789"})
  void shouldRefuseManifestWithoutChecksumOfFormat12OrLater(String version) {
    byte[] json = ManifestTampering.withoutChecksum(codec.encode(completed()), version);

    assertThatThrownBy(() -> codec.decode(json, SOURCE))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining(
            "Expected manifestChecksum in a manifest of format "
                + version
                + ", but it is missing (manifest "
                + SOURCE
                + ")");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "\"CRC32C:0a0b0c0d\"",
        "\"crc32c:0A0B0C0D\"",
        "\"crc32c:0a0b0c\"",
        "\"md5:0a0b0c0d\"",
        "\"0a0b0c0d\"",
        "\"\"",
        "12",
        "null",
        "[\"crc32c:0a0b0c0d\"]"
      })
  void shouldRefuseMalformedChecksumNamingTheManifest(String value) throws Exception {
    byte[] json = codec.encode(completed());
    byte[] malformed =
        replace(
            json,
            "\"manifestChecksum\" : \"" + recordedChecksum(json) + "\"",
            "\"manifestChecksum\" : " + value);

    assertThatThrownBy(() -> codec.decode(malformed, SOURCE))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("Expected manifestChecksum \"crc32c:\" and 8 lowercase hex digits")
        .hasMessageContaining("(manifest " + SOURCE + ")");
  }

  @Test
  void shouldDecodeManifestOfANewerMinorVersionSealedWithFieldsItDoesNotKnow() {
    byte[] newer =
        ManifestTampering.rewrite(
            codec.encode(completed()),
            tree -> {
              tree.put("manifestVersion", "1.5");
              tree.put("retentionClass", "gold");
              tree.putObject("placement").put("keyId", "k-1").putArray("rounds").add(1).add(2.5);
              ((ObjectNode) tree.get("descriptor")).put("exporterPosition", 77);
              ((ObjectNode) ((ArrayNode) tree.get("files").get("segments")).get(0))
                  .put("sha256", "ab");
            });

    assertThat(codec.decode(newer, SOURCE)).isEqualTo(completed());
    // the fields this reader does not know are covered as well
    assertThatThrownBy(() -> codec.decode(replace(newer, "\"gold\"", "\"gild\""), SOURCE))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("to match the manifest's content");
    assertThatThrownBy(() -> codec.decode(replace(newer, "\"keyId\" : \"k-1\",", ""), SOURCE))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("to match the manifest's content");
  }

  private static Manifest randomManifest(Random random) {
    var id =
        new BackupIdentifier(
            random.nextInt(5), 1 + random.nextInt(8), 1 + random.nextInt(Integer.MAX_VALUE));
    List<ManifestFile> snapshot = randomFiles(random, "sst");
    List<ManifestFile> segments = randomFiles(random, "log");
    long size =
        snapshot.stream().mapToLong(ManifestFile::sizeBytes).sum()
            + segments.stream().mapToLong(ManifestFile::sizeBytes).sum();
    var families = new TreeMap<String, String>();
    for (int i = random.nextInt(3); i > 0; i--) {
      families.put("FAMILY_" + i, HexFormat.of().toHexDigits(random.nextLong()));
    }
    var descriptor =
        new BackupDescriptor(
            id.checkpointId(),
            id.partitionId(),
            id.nodeId(),
            random.nextInt(1 << 30),
            snapshot.isEmpty() ? Optional.empty() : Optional.of("s-" + random.nextInt(1000)),
            8,
            "0." + random.nextInt(9) + ".0",
            HexFormat.of().toHexDigits(random.nextLong()),
            snapshot.size() + segments.size(),
            size,
            families);
    Instant created =
        Instant.ofEpochSecond(
            1_700_000_000L + random.nextInt(1_000_000), random.nextInt(1_000_000_000));
    Manifest inProgress = Manifest.inProgress(descriptor, created);
    return switch (random.nextInt(3)) {
      case 0 -> inProgress;
      case 1 -> inProgress.fail("reason \"" + random.nextInt() + "\" ü\n", created.plusMillis(5));
      default -> inProgress.complete(snapshot, segments, Optional.empty(), created.plusSeconds(1));
    };
  }

  private static List<ManifestFile> randomFiles(Random random, String suffix) {
    List<ManifestFile> files = new ArrayList<>();
    int count = random.nextInt(6);
    for (int i = 0; i < count; i++) {
      long size = random.nextInt(1 << 20);
      boolean zstd = random.nextBoolean();
      files.add(
          new ManifestFile(
              "dir" + i + "/f-" + i + "." + suffix,
              size,
              random.nextLong() & 0xFFFF_FFFFL,
              zstd ? random.nextInt(1 << 20) : size,
              zstd ? Compression.ZSTD : Compression.NONE));
    }
    return files;
  }
}
