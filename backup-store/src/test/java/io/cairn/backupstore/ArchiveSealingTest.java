package io.cairn.backupstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.archive.ArchiveException;
import io.cairn.backupapi.content.MasterKeyRing;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The log archive's objects sealed under the store's master keys, and every way one fails. */
final class ArchiveSealingTest {

  private static final String KEY = "partition-1/chunks/0000000000000000042";

  private static String secret(long seed) {
    byte[] key = new byte[MasterKeyRing.KEY_BYTES];
    new SplittableRandom(seed).nextBytes(key);
    return Base64.getEncoder().encodeToString(key);
  }

  private static ArchiveSealing sealing(String active, String ring) {
    return new ArchiveSealing(
        BackupEncryption.with(MasterKeyRing.parse(ring, "test keys"), active));
  }

  private final ArchiveSealing a = sealing("a", "a=" + secret(1));
  private final byte[] content = "records of the log".getBytes(StandardCharsets.UTF_8);

  @Test
  void shouldStoreCiphertextThatOpensOnlyUnderItsName() {
    byte[] sealed = a.seal(KEY, content);

    assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain("records");
    assertThat(sealed).startsWith('C', 'A', 'E', '1');
    assertThat(a.open(KEY, sealed)).isEqualTo(content);
    assertThat(a.seal(KEY, content)).as("a fresh key and nonce each time").isNotEqualTo(sealed);
    assertThatThrownBy(() -> a.open("partition-1/chunks/0000000000000000043", sealed))
        .isInstanceOf(ArchiveException.class)
        .hasMessageContaining("partition-1/chunks/0000000000000000043")
        .hasMessageContaining("master key 'a'");
  }

  @Test
  void shouldRefuseAChangedObjectNamingIt() {
    byte[] sealed = a.seal(KEY, content);
    sealed[sealed.length - 20] ^= 1;

    assertThatThrownBy(() -> a.open(KEY, sealed))
        .isInstanceOf(ArchiveException.class)
        .hasMessageContaining(KEY)
        .hasMessageContaining("changed after it was written");
    assertThatThrownBy(() -> a.open(KEY, java.util.Arrays.copyOf(sealed, 20)))
        .isInstanceOf(ArchiveException.class)
        .hasMessageContaining("cut short");
  }

  @Test
  void shouldNameTheKeyAndTheSettingWhenTheStoreCannotOpenIt() {
    byte[] sealed = a.seal(KEY, content);

    assertThatThrownBy(() -> new ArchiveSealing(BackupEncryption.off()).open(KEY, sealed))
        .isInstanceOf(ArchiveException.class)
        .hasMessageContaining("master key 'a'")
        .hasMessageContaining("backup.encryption");
    assertThatThrownBy(() -> sealing("b", "b=" + secret(2)).open(KEY, sealed))
        .isInstanceOf(ArchiveException.class)
        .hasMessageContaining("Expected master key 'a'");
    assertThatThrownBy(() -> sealing("a", "a=" + secret(3)).open(KEY, sealed))
        .isInstanceOf(ArchiveException.class)
        .hasMessageContaining("the key under that id is not the one");
    // after a rotation the old key still reads what it sealed
    assertThat(sealing("b", "a=" + secret(1) + "\nb=" + secret(2)).open(KEY, sealed))
        .isEqualTo(content);
  }

  @Test
  void shouldReadPlainObjectsWhateverTheSettingAndWriteThemPlainWithoutKeys() {
    assertThat(a.open(KEY, content)).isEqualTo(content);
    assertThat(new ArchiveSealing(BackupEncryption.off()).seal(KEY, content)).isSameAs(content);
  }
}
