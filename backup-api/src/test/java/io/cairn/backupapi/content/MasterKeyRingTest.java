package io.cairn.backupapi.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MasterKeyRingTest {

  private static final String OLD = Base64.getEncoder().encodeToString(filled(32, 1));
  private static final String NEW = Base64.getEncoder().encodeToString(filled(32, 2));
  private static final byte[] BACKUP = "backup 3-1-7".getBytes(StandardCharsets.UTF_8);

  private final SecureRandom random = new SecureRandom();

  @TempDir Path dir;

  @Test
  void shouldReadKeysByIdSkippingCommentsAndBlankLinesOrSeparatedBySemicolons() {
    MasterKeyRing file =
        MasterKeyRing.parse("# keys\n\nold-2025 = " + OLD + "\nnew.2026=" + NEW + "\n", "keys.txt");
    MasterKeyRing env = MasterKeyRing.parse("old-2025=" + OLD + ";new.2026=" + NEW, "CAIRN_KEYS");

    assertThat(file.ids()).containsExactly("old-2025", "new.2026");
    assertThat(env.ids()).containsExactly("old-2025", "new.2026");
    // the same keys from two sources are one ring (two brokers' copies of a key file)
    assertThat(file).isEqualTo(env).hasSameHashCodeAs(env);
    assertThat(MasterKeyRing.parse("old-2025=" + NEW, "other")).isNotEqualTo(env);
  }

  @Test
  void shouldNameTheSourceTheEntryAndWhatIsAllowedButNeverTheKey() {
    String shortKey = Base64.getEncoder().encodeToString(filled(16, 3));
    assertRefused(
        "k1 " + OLD,
        "Expected a key id of 1 to 64 of A-Z a-z 0-9 . _ - before the '=' in env, entry 1, but it"
            + " is not one (the entry is not shown: it may hold key material)");
    assertRefused(
        OLD.replace("=", ""),
        "Expected <id>=<base64 of 32 bytes> in env, entry 1, but it has no '='");
    assertRefused(
        OLD,
        "Expected a base64 key after the '=' in env, entry 1, but there is none (the entry is not"
            + " shown: it may hold key material)");
    assertRefused(
        "\nbad id=" + OLD,
        "Expected a key id of 1 to 64 of A-Z a-z 0-9 . _ - before the '=' in env, entry 2, but it"
            + " is not one (the entry is not shown: it may hold key material)");
    assertRefused(
        "k1=not base64!", "Expected key 'k1' in env, entry 1 to be base64, but it is not");
    assertRefused(
        "k1=" + shortKey,
        "Expected key 'k1' in env, entry 1 to be 32 bytes (AES-256), but it is 16");
    assertRefused("k1=" + OLD + ";k1=" + NEW, "Expected each key id once in env, but 'k1' repeats");
    assertRefused(
        "# nothing\n", "Expected at least one <id>=<base64 of 32 bytes> in env, but none");
  }

  private static void assertRefused(String text, String message) {
    assertThatThrownBy(() -> MasterKeyRing.parse(text, "env"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message)
        .satisfies(
            e ->
                assertThat(e.getMessage())
                    .doesNotContain(OLD.substring(0, 12))
                    .doesNotContain(NEW.substring(0, 12)));
  }

  @Test
  void shouldRefuseAKeyFileOthersCanReadAndReadOneOnlyItsOwnerCan() throws IOException {
    Path file = Files.writeString(dir.resolve("master.keys"), "k1=" + OLD + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

    assertThatThrownBy(() -> MasterKeyRing.load(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "Expected master key file " + file + " to be readable by its owner only")
        .hasMessageContaining("chmod 600 " + file);

    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    assertThat(MasterKeyRing.load(file).ids()).containsExactly("k1");
    assertThatThrownBy(() -> MasterKeyRing.load(dir.resolve("missing.keys")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected to read master key file " + dir.resolve("missing.keys"));
  }

  @Test
  void shouldUnwrapWhatItWrappedAndKeepOldBackupsAfterARotation() {
    MasterKeyRing before = MasterKeyRing.parse("old=" + OLD, "v1");
    SecretKey dataKey = MasterKeyRing.newDataKey(random);
    byte[] wrapped = before.wrap("old", dataKey, BACKUP, random);

    MasterKeyRing rotated = MasterKeyRing.parse("old=" + OLD + "\nnew=" + NEW, "v2");

    assertThat(wrapped).hasSize(MasterKeyRing.WRAPPED_BYTES);
    assertThat(rotated.unwrap("old", wrapped, BACKUP).getEncoded()).isEqualTo(dataKey.getEncoded());
    byte[] rewrapped = rotated.wrap("new", dataKey, BACKUP, random);
    assertThat(rotated.unwrap("new", rewrapped, BACKUP).getEncoded())
        .isEqualTo(dataKey.getEncoded());
  }

  @Test
  void shouldRefuseAMissingKeyAnotherKeyUnderTheSameIdAndAKeyOfAnotherBackup() {
    MasterKeyRing ring = MasterKeyRing.parse("old=" + OLD, "v1");
    byte[] wrapped = ring.wrap("old", MasterKeyRing.newDataKey(random), BACKUP, random);

    assertThatThrownBy(() -> MasterKeyRing.parse("new=" + NEW, "v2").unwrap("old", wrapped, BACKUP))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Expected master key 'old' in v2, but it has only [new]. Add the key the backup was written with to the ring");
    assertThatThrownBy(() -> MasterKeyRing.parse("old=" + NEW, "v3").unwrap("old", wrapped, BACKUP))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "Expected the data key to open with master key 'old' of v3, but it does not");
    assertThatThrownBy(
            () -> ring.unwrap("old", wrapped, "backup 3-1-8".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("or the wrapped key was changed");
  }

  @Test
  void shouldShowIdsButNoKeyMaterial() {
    String text = MasterKeyRing.parse("old=" + OLD + ";new=" + NEW, "env").toString();

    assertThat(text).isEqualTo("MasterKeyRing{env, ids=[old, new]}");
  }

  private static byte[] filled(int length, int value) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (value * 31 + i);
    }
    return bytes;
  }
}
