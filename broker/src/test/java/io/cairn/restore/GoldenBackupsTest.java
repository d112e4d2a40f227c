package io.cairn.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backup.Checkpoint;
import io.cairn.backupapi.content.MasterKeyRing;
import io.cairn.backupapi.manifest.ManifestCodec;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupstore.BackupEncryption;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Backups written by earlier versions of Cairn still restore: one golden backup per manifest format
 * version the code reads, each written by the code of its time ({@link BackupFixture}'s backup
 * {@value BackupFixture#CUT}, the consistent cut across three partitions) and committed under
 * {@code src/test/resources/golden-backups/format-<version>/}. Each is restored into an empty data
 * directory, a broker opened on it, and every partition must reach the cut with the state digest
 * and the balances recorded when the backup was written.
 *
 * <p>The current format also has an encrypted golden ({@code format-<version>-encrypted}): taken by
 * a broker with {@code backup.encryption.*} under a master key committed beside it, restored with
 * that key, and refused without it.
 *
 * <p>A golden of the current format is written with {@code mvn -pl broker test
 * -Dtest=GoldenBackupsTest -Dcairn.golden.write=<commit>} (the commit names the code that wrote
 * it); {@link #theCurrentFormatHasAGolden} fails until one exists, so a new format version cannot
 * be added without one.
 */
final class GoldenBackupsTest {

  private static final Path GOLDEN = Path.of("src/test/resources/golden-backups");
  private static final String EXPECTED = "expected.properties";
  private static final String ENCRYPTED = "-encrypted";
  private static final String KEY_ID = "golden";
  private static final Pattern MANIFEST_VERSION =
      Pattern.compile("\"manifestVersion\"\\s*:\\s*\"([0-9]+\\.[0-9]+)\"");

  static List<Path> goldens() throws IOException {
    try (Stream<Path> dirs = Files.list(GOLDEN)) {
      return dirs.filter(Files::isDirectory).sorted().toList();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void restoresToTheStateRecordedWhenItWasWritten(Path golden) throws IOException {
    Properties expected = read(golden.resolve(EXPECTED));
    long backupId = Long.parseLong(expected.getProperty("backupId"));
    assertThat(manifestVersions(golden.resolve("store")))
        .as("the manifest versions of %s", golden)
        .containsOnly(expected.getProperty("format"));
    Optional<BackupEncryption> encryption = encryption(expected);
    assertThat(golden.getFileName().toString())
        .isEqualTo(
            "format-" + expected.getProperty("format") + (encryption.isPresent() ? ENCRYPTED : ""));

    Path work = Files.createTempDirectory(Path.of("target"), "golden-");
    Path store = BackupFixture.copyTree(golden.resolve("store"), work.resolve("store"));
    Path data = work.resolve("data");
    try (BackupFixture.Stores stores = new BackupFixture.Stores()) {
      FilesystemBackupStore from = stores.open(store, encryption.orElse(BackupEncryption.off()));
      RestoreResult result =
          BackupRestorer.builder()
              .store(from)
              .listener(RestoreListener.NOOP)
              .meterRegistry(new SimpleMeterRegistry())
              .config(RestoreConfig.builder().progressIntervalBytes(0).build())
              .build()
              .restore(BackupFixture.target(data), BackupSelector.exact(backupId));
      assertThat(result.partitions()).hasSize(BackupFixture.PARTITIONS);
    }

    Path emptyStore = Files.createDirectories(work.resolve("store-of-restored"));
    try (LedgerBroker restored = new LedgerBroker(data, emptyStore, BackupFixture.PARTITIONS)) {
      for (int p = 1; p <= BackupFixture.PARTITIONS; p++) {
        restored.awaitCheckpoint(p, backupId);
        Checkpoint checkpoint = restored.latestCheckpoint(p).orElseThrow();
        assertThat(checkpoint.stateDigestHex())
            .as("state digest of partition %s restored from %s", p, golden)
            .isEqualTo(expected.getProperty("digest." + p));
      }
      assertThat(restored.balances()).isEqualTo(prefixed(expected, "balance."));
      assertThat(restored.nothingPending()).isTrue();
    }
  }

  @Test
  void theCurrentFormatHasAGolden() throws IOException {
    Path current = GOLDEN.resolve("format-" + ManifestCodec.FORMAT_VERSION);
    String writtenBy = System.getProperty("cairn.golden.write");
    if (writtenBy != null && !Files.exists(current)) {
      write(BackupFixture.get(), current, writtenBy, Map.of());
    }
    assertThat(current)
        .as(
            "a golden backup of manifest format %s; write it with -Dcairn.golden.write=<commit>"
                + " (see this class) and commit it",
            ManifestCodec.FORMAT_VERSION)
        .isDirectory();
  }

  /**
   * An encrypted golden of the current format: backup {@value BackupFixture#CUT} taken by a broker
   * with {@code backup.encryption.*}, under a master key made for it and committed with it (in
   * {@value #EXPECTED}: a key of tests, protecting nothing). Written like the plain one.
   */
  @Test
  void theCurrentFormatHasAnEncryptedGolden() throws IOException {
    Path current = GOLDEN.resolve("format-" + ManifestCodec.FORMAT_VERSION + ENCRYPTED);
    String writtenBy = System.getProperty("cairn.golden.write");
    if (writtenBy != null && !Files.exists(current)) {
      byte[] key = new byte[MasterKeyRing.KEY_BYTES];
      new SecureRandom().nextBytes(key);
      String keys = KEY_ID + "=" + Base64.getEncoder().encodeToString(key);
      Path root = Files.createTempDirectory(Path.of("target"), "golden-encrypted-fixture-");
      BackupFixture fixture =
          BackupFixture.encrypted(
              root,
              BackupEncryption.with(MasterKeyRing.parse(keys, "the golden's key"), KEY_ID),
              Map.of("backup.encryption.keys", keys, "backup.encryption.keyId", KEY_ID));
      write(
          fixture, current, writtenBy, Map.of("encryption.keys", keys, "encryption.keyId", KEY_ID));
    }
    assertThat(current)
        .as(
            "an encrypted golden backup of manifest format %s; write it with"
                + " -Dcairn.golden.write=<commit> (see this class) and commit it",
            ManifestCodec.FORMAT_VERSION)
        .isDirectory();
  }

  /** Without its master key, the encrypted golden is refused before anything is written. */
  @Test
  void anEncryptedGoldenWithoutItsKeyIsRefused() throws IOException {
    Path golden = GOLDEN.resolve("format-" + ManifestCodec.FORMAT_VERSION + ENCRYPTED);
    Properties expected = read(golden.resolve(EXPECTED));
    Path work = Files.createTempDirectory(Path.of("target"), "golden-no-key-");
    Path store = BackupFixture.copyTree(golden.resolve("store"), work.resolve("store"));
    Path data = work.resolve("data");
    try (BackupFixture.Stores stores = new BackupFixture.Stores()) {
      BackupRestorer restorer =
          BackupRestorer.builder()
              .store(stores.open(store))
              .listener(RestoreListener.NOOP)
              .meterRegistry(new SimpleMeterRegistry())
              .config(RestoreConfig.builder().progressIntervalBytes(0).build())
              .build();
      long backupId = Long.parseLong(expected.getProperty("backupId"));
      assertThatThrownBy(
              () -> restorer.restore(BackupFixture.target(data), BackupSelector.exact(backupId)))
          .hasMessageContaining(KEY_ID);
    }
    assertThat(data)
        .satisfiesAnyOf(d -> assertThat(d).doesNotExist(), d -> assertThat(d).isEmptyDirectory());
  }

  /** The golden's master keys, if it is encrypted. */
  private static Optional<BackupEncryption> encryption(Properties expected) {
    String keys = expected.getProperty("encryption.keys");
    if (keys == null) {
      return Optional.empty();
    }
    return Optional.of(
        BackupEncryption.with(
            MasterKeyRing.parse(keys, "the golden's key"),
            expected.getProperty("encryption.keyId")));
  }

  /**
   * Copies backup {@value BackupFixture#CUT} of the fixture and what it recorded at the cut, with
   * {@code more} properties (the keys of an encrypted golden).
   */
  static void write(BackupFixture fixture, Path golden, String writtenBy, Map<String, String> more)
      throws IOException {
    Path store = golden.resolve("store");
    for (String kind : List.of("manifests", "contents")) {
      for (int p = 1; p <= BackupFixture.PARTITIONS; p++) {
        Path backup = Path.of(kind, Integer.toString(p), Long.toString(BackupFixture.CUT));
        BackupFixture.copyTree(fixture.store().resolve(backup), store.resolve(backup));
      }
    }
    Properties expected = new Properties();
    expected.setProperty("writtenBy", writtenBy);
    expected.setProperty("format", manifestVersions(store).get(0));
    expected.setProperty("backupId", Long.toString(BackupFixture.CUT));
    fixture.digestsAtCut().forEach((p, digest) -> expected.setProperty("digest." + p, digest));
    fixture
        .balancesAtCut()
        .forEach((account, balance) -> expected.setProperty("balance." + account, "" + balance));
    more.forEach(expected::setProperty);
    try (Writer out = Files.newBufferedWriter(golden.resolve(EXPECTED), StandardCharsets.UTF_8)) {
      expected.store(out, "What backup " + BackupFixture.CUT + " held at its cut");
    }
  }

  private static List<String> manifestVersions(Path store) throws IOException {
    try (Stream<Path> files = Files.walk(store.resolve("manifests"))) {
      return files
          .filter(f -> f.getFileName().toString().equals("manifest.json"))
          .map(
              f -> {
                try {
                  Matcher m = MANIFEST_VERSION.matcher(Files.readString(f));
                  return m.find() ? m.group(1) : "none in " + f;
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .distinct()
          .toList();
    }
  }

  private static Map<String, Long> prefixed(Properties properties, String prefix) {
    Map<String, Long> values = new TreeMap<>();
    for (String name : properties.stringPropertyNames()) {
      if (name.startsWith(prefix)) {
        values.put(name.substring(prefix.length()), Long.parseLong(properties.getProperty(name)));
      }
    }
    return values;
  }

  private static Properties read(Path file) throws IOException {
    Properties properties = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(in);
    }
    return properties;
  }
}
