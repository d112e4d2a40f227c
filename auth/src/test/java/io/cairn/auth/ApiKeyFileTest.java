package io.cairn.auth;

import static io.cairn.auth.NoSecrets.assertNoSecretIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.cairn.auth.ApiKeys.GeneratedApiKey;
import io.cairn.auth.apikey.ApiKeyFile;
import io.cairn.auth.apikey.InvalidApiKeyFileException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class ApiKeyFileTest {

  private static final String KEY = "security.auth.apiKeysFile";
  private static final String HEX_A = "a".repeat(64);
  private static final String HEX_B = "0123456789abcdef".repeat(4);
  private static final String HEX_C = "fedcba9876543210".repeat(4);

  @TempDir private Path dir;

  @Test
  void shouldReadKeysSkippingCommentsAndBlankLines() {
    Path file =
        CredentialsFile.write(
            dir,
            "# the ledger's callers",
            "",
            "billing:client:sha256:" + HEX_A,
            "  ops.alice : admin , client : sha256:" + HEX_B + "   # Alice, on call",
            "backup-bot:ADMIN:sha256:" + HEX_C.toUpperCase());

    ApiKeyFile keys = ApiKeyFile.read(file, KEY);

    assertThat(keys.keyIds()).containsExactly("billing", "ops.alice", "backup-bot");
    assertThat(keys.entry("ops.alice").orElseThrow().roles())
        .containsExactly(Role.CLIENT, Role.ADMIN);
    assertThat(keys.entry("ops.alice").orElseThrow().line()).isEqualTo(4);
    assertNoSecretIn(keys, HEX_A, HEX_B, HEX_C);
  }

  @Test
  void shouldNameEveryBadLineWithWhatIsWrongAndShowNoHash() {
    // given
    Path file =
        CredentialsFile.write(
            dir,
            "# comment",
            "billing:client:sha256:" + HEX_A,
            "billing.pasted-secret-" + HEX_B, // 3: one field
            "bad id!:client:sha256:" + HEX_B, // 4: key id
            "x:superuser:sha256:" + HEX_B, // 5: unknown role, shown
            "y:client:sha256:" + HEX_B.substring(1), // 6: hash too short
            "z:client:md5:" + HEX_C, // 7: another scheme
            "billing:admin:sha256:" + HEX_C, // 8: repeated id
            "",
            "w::sha256:" + HEX_C, // 10: no role
            "v:client,0123456789abcdef:sha256:" + HEX_C, // 11: role not shown
            "u:client:sha256:" + HEX_C + " # fine");

    // when
    InvalidApiKeyFileException e =
        catchThrowableOfType(InvalidApiKeyFileException.class, () -> ApiKeyFile.read(file, KEY));

    // then
    assertThat(e.problems())
        .containsExactly(
            "line 3: Expected <keyId>:<role>[,<role>]:sha256:<64 hex digits>, but it has 1 field",
            "line 4: Expected a key id of 1 to 64 of A-Z a-z 0-9 . _ - first, but it is not one",
            "line 5: Expected roles from client, admin separated by ',' second, but 'superuser' is"
                + " not one",
            "line 6: Expected the hash of the secret as sha256:<64 hex digits> third, but it is"
                + " not one",
            "line 7: Expected the hash of the secret as sha256:<64 hex digits> third, but it is"
                + " not one",
            "line 8: Expected each key id once, but this line's is also on line 2",
            "line 10: Expected roles from client, admin separated by ',' second, but one is empty",
            "line 11: Expected roles from client, admin separated by ',' second, but one is not a"
                + " role");
    assertThat(e.getMessage())
        .startsWith(
            "Expected every line of API key file "
                + file
                + " (security.auth.apiKeysFile) to be <keyId>:<role>[,<role>]:sha256:<64 hex"
                + " digits>, blank or a # comment, but 8 are not (no line's text is shown: it may"
                + " hold a secret): line 3: ")
        .endsWith(". Correct or remove them");
    assertNoSecretIn(e, HEX_A, HEX_B, HEX_B.substring(1), HEX_C, "pasted-secret", "bad id!");
  }

  @ParameterizedTest
  @ValueSource(strings = {"rw-r--r--", "rw-r-----", "rw--w----", "rw----r--", "rw-----w-"})
  void shouldRefuseAFileOpenToGroupOrOthers(String permissions) {
    // given
    GeneratedApiKey key = ApiKeys.generate("billing", Set.of(Role.CLIENT));
    Path file = CredentialsFile.write(dir, key.fileLine());
    CredentialsFile.chmod(file, permissions);

    // when
    InvalidApiKeyFileException e =
        catchThrowableOfType(InvalidApiKeyFileException.class, () -> ApiKeyFile.read(file, KEY));

    // then
    assertThat(e)
        .hasMessageStartingWith(
            "Expected API key file "
                + file
                + " (security.auth.apiKeysFile) to be readable and writable by its owner only, but"
                + " it is open to [")
        .hasMessageEndingWith(
            ": whoever can write it can make themselves an administrator. Run: chmod 600 " + file);
    assertNoSecretIn(e, ApiKeyAuthenticationTest.secretOf(key), key.fileLine().substring(20));
  }

  @Test
  void shouldAcceptTheOwnerOnlyFile() {
    Path file = CredentialsFile.write(dir, "billing:client:sha256:" + HEX_A);
    CredentialsFile.chmod(file, "r--------");

    assertThat(ApiKeyFile.read(file, KEY).keyIds()).containsExactly("billing");
  }

  @Test
  void shouldRefuseAMissingFileNamingItsKey() {
    Path missing = dir.resolve("nothing-here");

    assertThat(
            catchThrowableOfType(
                InvalidApiKeyFileException.class, () -> ApiKeyFile.read(missing, "gateway." + KEY)))
        .hasMessage(
            "Expected API key file "
                + missing
                + " (gateway.security.auth.apiKeysFile) to exist, but it does not. Create it (one"
                + " key a line, see 'cairn security create-api-key') or correct"
                + " gateway.security.auth.apiKeysFile");
  }

  @Test
  void shouldRefuseAFileThatIsNotUtf8OrTooLarge() throws IOException {
    Path binary = dir.resolve("binary");
    Files.write(binary, new byte[] {'a', ':', (byte) 0xC3, (byte) 0x28});
    CredentialsFile.chmod(binary, "rw-------");
    Path large = dir.resolve("large");
    Files.write(large, new byte[ApiKeyFile.MAX_BYTES + 1]);
    CredentialsFile.chmod(large, "rw-------");

    assertThat(
            catchThrowableOfType(
                InvalidApiKeyFileException.class, () -> ApiKeyFile.read(binary, KEY)))
        .hasMessage(
            "Expected API key file "
                + binary
                + " (security.auth.apiKeysFile) to be UTF-8 text, but it is not. Write it as"
                + " UTF-8");
    assertThat(
            catchThrowableOfType(
                InvalidApiKeyFileException.class, () -> ApiKeyFile.read(large, KEY)))
        .hasMessageContaining("to be at most 1048576 bytes, but it has more");
  }

  @Test
  void shouldRefuseAFifoAndAHugeFileWithoutReadingThemWhole() throws Exception {
    Path fifo = dir.resolve("fifo");
    assertThat(new ProcessBuilder("mkfifo", "-m", "600", fifo.toString()).start().waitFor())
        .isZero();
    Path huge = dir.resolve("huge");
    try (var file = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
      file.setLength(8L * 1024 * 1024 * 1024); // sparse: 8 GiB that a whole read could not hold
    }
    CredentialsFile.chmod(huge, "rw-------");

    // A read of the FIFO would block for ever: the refusal comes before any read.
    assertThat(
            catchThrowableOfType(
                InvalidApiKeyFileException.class, () -> ApiKeyFile.read(fifo, KEY)))
        .hasMessageContaining("to be a regular file, but it is not");
    assertThat(
            catchThrowableOfType(
                InvalidApiKeyFileException.class, () -> ApiKeyFile.read(huge, KEY)))
        .hasMessageContaining("to be at most 1048576 bytes, but it has more");
  }

  @Test
  void shouldAcceptAFileWithoutKeysInWhichNoKeyAuthenticates() {
    Path file = CredentialsFile.write(dir, "# every key revoked");
    GeneratedApiKey key = ApiKeys.generate("billing", Set.of(Role.CLIENT));
    Authenticator authenticator =
        Authenticator.create(
            AuthSettings.builder().enabled(true).apiKeysFile(file).build(),
            new io.cairn.scheduler.SimClock(0));

    AuthOutcome outcome = authenticator.authenticate("ApiKey " + key.presentedKey());

    assertThat(((AuthOutcome.Unauthenticated) outcome).failure())
        .isEqualTo(AuthFailure.UNKNOWN_KEY);
  }
}
