package io.cairn.backupapi.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.ManifestException;
import io.cairn.backuptestkit.ManifestTampering;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ManifestCodecTest {

  private static final String SOURCE = "manifests/2/9/1/manifest.json";
  private static final BackupIdentifier ID = new BackupIdentifier(1, 2, 9);
  private static final Instant T0 = Instant.parse("2025-03-01T10:00:00Z");

  private final ManifestCodec codec = new ManifestCodec();

  private static Manifest completed() {
    var snapshot =
        List.of(
            new ManifestFile("CURRENT", 16, 0xDEADBEEFL, 16, Compression.NONE),
            new ManifestFile("meta/000012.sst", 300_000, 0x01020304L, 51_234, Compression.ZSTD));
    var segments = List.of(new ManifestFile("1.log", 600_000, 0L, 600_000, Compression.NONE));
    var descriptor =
        new BackupDescriptor(
            9, 2, 1, 12_345, Optional.of("snap-8"), 3, "0.1.0", "00ff", 3, 900_016);
    return Manifest.inProgress(descriptor, T0)
        .complete(snapshot, segments, Optional.empty(), T0.plusSeconds(3));
  }

  private String json(Manifest manifest) {
    return new String(codec.encode(manifest), StandardCharsets.UTF_8);
  }

  private Manifest decode(String json) {
    return codec.decode(json.getBytes(StandardCharsets.UTF_8), SOURCE);
  }

  /** {@code from} replaced by {@code to} in the JSON of {@code manifest}, checksum sealed again. */
  private String tampered(Manifest manifest, String from, String to) {
    String json = json(manifest);
    assertThat(json).contains(from);
    return ManifestTampering.reseal(json.replace(from, to));
  }

  @Test
  void shouldRoundTripEveryState() {
    Manifest done = completed();
    Manifest inProgress = Manifest.inProgress(done.descriptor().orElseThrow(), T0);
    Manifest failed = inProgress.fail("leader changed", T0.plusSeconds(9));
    Manifest markedOnly = Manifest.failedWithoutDescriptor(ID, "leader changed", T0);

    for (Manifest m : List.of(done, inProgress, failed, markedOnly)) {
      assertThat(codec.decode(codec.encode(m), SOURCE, ID)).isEqualTo(m);
    }
    assertThat(json(done))
        .contains("\"manifestVersion\" : \"1.3\"")
        .containsPattern("\"manifestChecksum\" : \"crc32c:[0-9a-f]{8}\"")
        .contains("\"crc32c\" : \"deadbeef\"")
        .contains("\"compression\" : \"zstd\"");
    assertThat(json(done)).doesNotContain("failureReason");
    assertThat(json(done)).doesNotContain("familyDigests");
  }

  @Test
  void shouldRoundTripFamilyDigestsWhenRecorded() {
    var families = new java.util.TreeMap<String, String>();
    families.put("accounts", "0000000000000000000000000000000a");
    families.put("transfers", "000000000000000000000000000000f5");
    var descriptor =
        new BackupDescriptor(
            9,
            2,
            1,
            12_345,
            Optional.empty(),
            3,
            "0.1.0",
            "000000000000000000000000000000ff",
            0,
            0,
            families);
    Manifest m = Manifest.inProgress(descriptor, T0);

    Manifest decoded = codec.decode(codec.encode(m), SOURCE, ID);

    assertThat(decoded).isEqualTo(m);
    assertThat(decoded.descriptor().orElseThrow().familyDigests()).isEqualTo(families);
    assertThat(json(m)).contains("\"accounts\" : \"0000000000000000000000000000000a\"");
  }

  @Test
  void shouldReadManifestWithoutFamilyDigestsAsNoneRecorded() {
    String json =
        new String(
            ManifestTampering.withoutChecksum(codec.encode(completed()), "1.0"),
            StandardCharsets.UTF_8);
    assertThat(json).doesNotContain("familyDigests");

    BackupDescriptor d = decode(json).descriptor().orElseThrow();

    assertThat(d.familyDigests()).isEmpty();
    assertThat(d.differingFamilies(java.util.Map.of("accounts", "01"))).isEmpty();
  }

  @Test
  void shouldNameFamiliesWhoseDigestDiffers() {
    var families = new java.util.TreeMap<>(java.util.Map.of("accounts", "0a", "transfers", "f5"));
    var d = new BackupDescriptor(9, 2, 1, 1, Optional.empty(), 3, "0.1.0", "ff", 0, 0, families);

    assertThat(
            d.differingFamilies(java.util.Map.of("accounts", "0a", "transfers", "f6", "x", "01")))
        .containsExactly("transfers expected f5, actual f6", "x expected absent, actual 01");
    assertThat(d.differingFamilies(families)).isEmpty();
  }

  @Test
  void shouldRejectFamilyDigestThatIsNotHex() {
    String json =
        tampered(
            Manifest.inProgress(
                new BackupDescriptor(
                    9,
                    2,
                    1,
                    1,
                    Optional.empty(),
                    3,
                    "0.1.0",
                    "ff",
                    0,
                    0,
                    new java.util.TreeMap<>(java.util.Map.of("accounts", "0a"))),
                T0),
            "\"0a\"",
            "\"XY\"");

    assertThatThrownBy(() -> decode(json))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("familyDigests")
        .hasMessageContaining(SOURCE);
  }

  @Test
  void shouldRoundTripSeededRandomManifests() {
    long seed = Long.getLong("cairn.seed", 20_250_301L);
    var random = new Random(seed);
    for (int run = 0; run < 200; run++) {
      Manifest m = randomManifest(random);
      assertThat(codec.decode(codec.encode(m), SOURCE))
          .as("seed %d, run %d", seed, run)
          .isEqualTo(m);
    }
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
    var descriptor =
        new BackupDescriptor(
            id.checkpointId(),
            id.partitionId(),
            id.nodeId(),
            random.nextInt(1 << 30),
            snapshot.isEmpty() ? Optional.empty() : Optional.of("s-" + run(random)),
            8,
            "0." + random.nextInt(9) + ".0",
            digest(random),
            snapshot.size() + segments.size(),
            size);
    Instant created =
        Instant.ofEpochSecond(
            1_700_000_000L + random.nextInt(1_000_000), random.nextInt(1_000_000_000));
    Manifest inProgress = Manifest.inProgress(descriptor, created);
    return switch (random.nextInt(3)) {
      case 0 -> inProgress;
      case 1 -> inProgress.fail("reason \"" + run(random) + "\" ü\n", created.plusMillis(5));
      default -> inProgress.complete(snapshot, segments, Optional.empty(), created.plusSeconds(1));
    };
  }

  private static String digest(Random random) {
    byte[] bytes = new byte[1 + random.nextInt(32)];
    random.nextBytes(bytes);
    return java.util.HexFormat.of().formatHex(bytes);
  }

  private static String run(Random random) {
    return Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
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

  @Test
  void shouldIgnoreUnknownFieldsOfANewerMinorVersion() {
    String json =
        ManifestTampering.reseal(
            json(completed())
                .replace(
                    "\"manifestVersion\" : \"1.3\"", "\"manifestVersion\" : \"1.4\", \"extra\" : 1")
                .replace(
                    "\"compression\" : \"zstd\"", "\"compression\" : \"zstd\", \"sha\" : [1, 2]"));

    assertThat(decode(json)).isEqualTo(completed());
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "0.9", "10.1"})
  void shouldRefuseAnotherMajorVersion(String version) {
    String json = tampered(completed(), "\"1.3\"", "\"" + version + "\"");

    assertThatThrownBy(() -> decode(json))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("format version 1.x, but it is " + version)
        .hasMessageContaining(SOURCE);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "\"1.3\"|\"one\"|manifestVersion",
        "\"1.3\"|1|manifestVersion",
        "\"COMPLETED\"|\"DONE\"|status",
        "\"deadbeef\"|\"DEADBEEF\"|CRC32C",
        "\"deadbeef\"|\"beef\"|CRC32C",
        "\"zstd\"|\"lz4\"|compression",
        "\"2025-03-01T10:00:00Z\"|\"yesterday\"|createdAt",
        "\"fileCount\" : 3|\"fileCount\" : 4|descriptor's 4 files",
        "\"storedSizeBytes\" : 16|\"storedSizeBytes\" : 15|uncompressed file",
        "\"partitionId\" : 2|\"partitionId\" : 0|partitionId >= 1"
      })
  void shouldRejectInvalidFieldNamingTheManifest(String from, String to, String message) {
    String original = json(completed());
    assertThat(original).contains(from);
    String json =
        ManifestTampering.reseal(original.replaceFirst(java.util.regex.Pattern.quote(from), to));

    assertThatThrownBy(() -> decode(json))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining(message)
        .hasMessageContaining("(manifest " + SOURCE + ")");
  }

  @Test
  void shouldNameAMissingField() {
    String json = tampered(completed(), "\"stateDigest\" : \"00ff\",", "");

    assertThatThrownBy(() -> decode(json))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("descriptor.stateDigest, but it is missing");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"../../etc/passwd", "/etc/passwd", "a//b", "a\\\\b", "", "x/../..", "ok/"})
  void shouldRejectNamesThatCouldEscapeTheTarget(String name) {
    String json = tampered(completed(), "\"meta/000012.sst\"", "\"" + name + "\"");
    String shown = name.replace("\\\\", "\\");

    assertThatThrownBy(() -> decode(json))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("snapshot file '" + shown + "'")
        .hasMessageContaining(SOURCE);
  }

  @Test
  void shouldRejectDuplicateNames() {
    String json = tampered(completed(), "\"meta/000012.sst\"", "\"CURRENT\"");

    assertThatThrownBy(() -> decode(json)).hasMessageContaining("'CURRENT' appears twice");
  }

  @Test
  void shouldRejectManifestOfAnotherBackup() {
    byte[] bytes = codec.encode(completed());

    assertThatThrownBy(() -> codec.decode(bytes, SOURCE, new BackupIdentifier(1, 2, 10)))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("describes " + ID);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "[]", "{", "null", "\"text\""})
  void shouldRejectWhatIsNotAManifestObject(String json) {
    assertThatThrownBy(() -> decode(json))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining(SOURCE);
  }

  @Test
  void shouldRefuseTransitionsFromFinalStates() {
    Manifest done = completed();

    assertThatThrownBy(() -> done.fail("late", T0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is COMPLETED");
    assertThatThrownBy(
            () ->
                Manifest.failedWithoutDescriptor(ID, "x", T0)
                    .complete(List.of(), List.of(), Optional.empty(), T0))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void shouldMapToStatus() {
    var status = completed().toStatus();

    assertThat(status.statusCode()).isEqualTo(BackupStatusCode.COMPLETED);
    assertThat(status.createdAt()).contains(T0);
    assertThat(status.lastUpdatedAt()).contains(T0.plusSeconds(3));
  }
}
