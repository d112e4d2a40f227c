package io.cairn.auth;

import static io.cairn.auth.NoSecrets.assertNoSecretIn;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.cairn.auth.ApiKeys.GeneratedApiKey;
import io.cairn.auth.apikey.ApiKeyStore;
import io.cairn.scheduler.SimClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ApiKeyReloadTest {

  private static final Duration INTERVAL = Duration.ofSeconds(10);

  private final SimClock clock = new SimClock(1_767_225_600_000L);
  private final GeneratedApiKey billing = ApiKeys.generate("billing", Set.of(Role.CLIENT));
  private final GeneratedApiKey alice = ApiKeys.generate("ops.alice", Set.of(Role.ADMIN));
  private final LogCapture log = new LogCapture(ApiKeyStore.class);

  @TempDir private Path dir;
  private Path file;
  private Authenticator authenticator;

  @BeforeEach
  void setUp() {
    file = CredentialsFile.write(dir, billing.fileLine());
    authenticator =
        Authenticator.create(
            AuthSettings.builder()
                .enabled(true)
                .apiKeysFile(file)
                .apiKeysReloadInterval(INTERVAL)
                .build(),
            clock);
  }

  @AfterEach
  void tearDown() {
    log.close();
  }

  @Test
  void shouldAddAKeyOnceTheReloadIntervalHasPassed() {
    // given
    CredentialsFile.rewrite(file, billing.fileLine(), alice.fileLine());

    // when the interval has not passed, then the file is not looked at
    clock.advance(INTERVAL.minusMillis(1));
    assertThat(failure(alice)).isEqualTo(AuthFailure.UNKNOWN_KEY);

    // when it has
    clock.advance(Duration.ofMillis(1));

    // then
    assertThat(authenticated(alice)).isTrue();
    assertThat(authenticated(billing)).isTrue();
    assertThat(log.messages(Level.INFO)).anySatisfy(m -> assertThat(m).contains("2 keys (were 1)"));
  }

  @Test
  void shouldRevokeAKeyRemovedFromTheFile() {
    CredentialsFile.rewrite(file, alice.fileLine());
    clock.advance(INTERVAL);

    assertThat(failure(billing)).isEqualTo(AuthFailure.UNKNOWN_KEY);
    assertThat(authenticated(alice)).isTrue();
  }

  @Test
  void shouldKeepTheKeysAndWarnOnceWhenTheFileTurnsBad() {
    // given a line broken while adding alice
    String brokenAlice = alice.fileLine().replace("sha256:", "sha256");
    CredentialsFile.rewrite(file, billing.fileLine(), brokenAlice);

    // when looked at, twice
    clock.advance(INTERVAL);
    assertThat(authenticated(billing)).isTrue();
    clock.advance(INTERVAL);
    assertThat(authenticated(billing)).isTrue();

    // then the old keys hold, and one WARN names the line and shows no hash
    assertThat(failure(alice)).isEqualTo(AuthFailure.UNKNOWN_KEY);
    assertThat(log.messages(Level.WARN))
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m).contains("line 2: Expected the hash of the secret");
              assertThat(m).endsWith("Keeping the 1 keys read before until the file is corrected");
              assertNoSecretIn(m, hashOf(billing), hashOf(alice), secretOf(alice));
            });

    // when corrected
    CredentialsFile.rewrite(file, billing.fileLine(), alice.fileLine());
    clock.advance(INTERVAL);

    // then
    assertThat(authenticated(alice)).isTrue();
    assertThat(log.messages(Level.WARN)).hasSize(1);
  }

  @Test
  void shouldReadTheFileAgainOncePermissionsAreClosed() {
    // given a new key written with the wrong permissions
    CredentialsFile.rewrite(file, billing.fileLine(), alice.fileLine());
    CredentialsFile.chmod(file, "rw-r--r--");
    clock.advance(INTERVAL);
    assertThat(failure(alice)).isEqualTo(AuthFailure.UNKNOWN_KEY);
    assertThat(log.messages(Level.WARN)).singleElement().asString().contains("chmod 600");

    // when only the permissions change
    CredentialsFile.chmod(file, "rw-------");
    clock.advance(INTERVAL);

    // then
    assertThat(authenticated(alice)).isTrue();
  }

  @Test
  void shouldKeepTheKeysAndWarnOnceWhenTheFileIsGone() throws IOException {
    Files.delete(file);

    clock.advance(INTERVAL);
    assertThat(authenticated(billing)).isTrue();
    clock.advance(INTERVAL);
    assertThat(authenticated(billing)).isTrue();

    assertThat(log.messages(Level.WARN))
        .singleElement()
        .asString()
        .contains("Keeping the 1 keys read before; empty the file to revoke every key");
  }

  private boolean authenticated(GeneratedApiKey key) {
    return authenticator
        .authenticate("ApiKey " + key.presentedKey())
        .principalIfAuthenticated()
        .isPresent();
  }

  private AuthFailure failure(GeneratedApiKey key) {
    return ((AuthOutcome.Unauthenticated)
            authenticator.authenticate("ApiKey " + key.presentedKey()))
        .failure();
  }

  private static String hashOf(GeneratedApiKey key) {
    return key.fileLine().substring(key.fileLine().lastIndexOf(':') + 1);
  }

  private static String secretOf(GeneratedApiKey key) {
    return ApiKeyAuthenticationTest.secretOf(key);
  }
}
