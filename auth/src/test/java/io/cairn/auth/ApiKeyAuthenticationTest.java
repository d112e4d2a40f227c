package io.cairn.auth;

import static io.cairn.auth.NoSecrets.assertNoSecretIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.auth.ApiKeys.GeneratedApiKey;
import io.cairn.auth.apikey.ApiKeyFile;
import io.cairn.scheduler.SimClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ApiKeyAuthenticationTest {

  private final SimClock clock = new SimClock(1_767_225_600_000L);
  private final GeneratedApiKey client = ApiKeys.generate("billing", Set.of(Role.CLIENT));
  private final GeneratedApiKey admin = ApiKeys.generate("ops.alice", Set.of(Role.ADMIN));

  @TempDir private Path dir;
  private Authenticator authenticator;

  @BeforeEach
  void setUp() {
    Path file = CredentialsFile.write(dir, "# who may call", client.fileLine(), admin.fileLine());
    authenticator =
        Authenticator.create(AuthSettings.builder().enabled(true).apiKeysFile(file).build(), clock);
  }

  @Test
  void shouldAuthenticateAValidKeyAsItsIdWithItsRoles() {
    // when
    AuthOutcome outcome = authenticator.authenticate("ApiKey " + client.presentedKey());

    // then
    assertThat(outcome.principalIfAuthenticated())
        .contains(new Principal("billing", Set.of(Role.CLIENT), AuthMethod.API_KEY));
    assertThat(
            authenticator.authenticate("apikey " + admin.presentedKey()).principalIfAuthenticated())
        .contains(new Principal("ops.alice", Set.of(Role.ADMIN), AuthMethod.API_KEY));
    assertNoSecretIn(outcome, secretOf(client), client.presentedKey());
  }

  @Test
  void shouldRejectUnknownIdWrongSecretAndMalformedKeysAlikeToTheCaller() {
    // given
    String secret = secretOf(client);
    List<String> headers =
        List.of(
            "ApiKey nobody." + secret, // unknown key id
            "ApiKey billing." + secretOf(admin), // wrong secret
            "ApiKey " + secret, // no key id
            "ApiKey billing.tooShort", // not a secret
            "ApiKey billing.",
            "ApiKey " + client.presentedKey() + " extra");

    // when
    List<AuthOutcome> outcomes = headers.stream().map(authenticator::authenticate).toList();

    // then
    assertThat(outcomes)
        .allSatisfy(
            outcome -> {
              assertThat(outcome).isInstanceOf(AuthOutcome.Unauthenticated.class);
              assertThat(((AuthOutcome.Unauthenticated) outcome).publicMessage())
                  .isEqualTo(AuthOutcome.PUBLIC_MESSAGE);
              assertNoSecretIn(outcome, secret, secretOf(admin));
            });
    assertThat(outcomes)
        .extracting(o -> ((AuthOutcome.Unauthenticated) o).failure())
        .containsExactly(
            AuthFailure.UNKNOWN_KEY,
            AuthFailure.WRONG_SECRET,
            AuthFailure.MALFORMED,
            AuthFailure.MALFORMED,
            AuthFailure.MALFORMED,
            AuthFailure.MALFORMED);
    assertThat(((AuthOutcome.Unauthenticated) outcomes.get(0)).reason())
        .isEqualTo("unknown API key id 'nobody'");
    assertThat(((AuthOutcome.Unauthenticated) outcomes.get(1)).reason())
        .isEqualTo("wrong secret for API key id 'billing'");
  }

  @Test
  void shouldForbidAClientKeyAnAdminOperationAndAllowAnAdminKeyBoth() {
    Principal clientCaller = principal("ApiKey " + client.presentedKey());
    Principal adminCaller = principal("ApiKey " + admin.presentedKey());

    assertThat(Authorizer.authorize(clientCaller, GatewayOperations.TRANSFER).allowed()).isTrue();
    Authorization refused = Authorizer.authorize(clientCaller, GatewayOperations.TAKE_BACKUP);
    assertThat(refused.allowed()).isFalse();
    assertThat(Authorizer.authorize(adminCaller, GatewayOperations.TRANSFER).allowed()).isTrue();
    assertThat(Authorizer.authorize(adminCaller, GatewayOperations.TAKE_BACKUP).allowed()).isTrue();
    assertNoSecretIn(refused, secretOf(client));
  }

  @Test
  void shouldGenerateAKeyWhoseLineTheFileAcceptsAndWhoseHashIsSha256OfTheSecret() throws Exception {
    // when
    GeneratedApiKey key = ApiKeys.generate("backup-bot", Set.of(Role.ADMIN, Role.CLIENT));

    // then
    assertThat(key.presentedKey()).matches("backup-bot\\.[A-Za-z0-9_-]{43}");
    String hex =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256")
                    .digest(secretOf(key).getBytes(StandardCharsets.UTF_8)));
    // what 'printf %s <secret> | sha256sum' prints, so operators can make lines without Cairn
    assertThat(key.fileLine()).isEqualTo("backup-bot:client,admin:sha256:" + hex);
    assertThat(ApiKeyFile.read(CredentialsFile.write(dir, key.fileLine()), "k").keyIds())
        .containsExactly("backup-bot");
    assertThat(ApiKeys.generate("backup-bot", Set.of(Role.ADMIN)).presentedKey())
        .isNotEqualTo(key.presentedKey());
    assertThat(key.toString()).isEqualTo("GeneratedApiKey{backup-bot, roles [client,admin]}");
    assertNoSecretIn(key, secretOf(key), hex);
  }

  @Test
  void shouldRefuseToGenerateABadKeyIdOrAKeyWithoutRoles() {
    assertThatThrownBy(() -> ApiKeys.generate("no spaces", Set.of(Role.CLIENT)))
        .hasMessage(
            "Expected a key id of 1 to 64 of A-Z a-z 0-9 . _ -, but was 'no spaces'. Choose a name"
                + " such as 'billing-service' or 'ops.alice'");
    assertThatThrownBy(() -> ApiKeys.generate("x".repeat(65), Set.of(Role.CLIENT)))
        .hasMessageStartingWith("Expected a key id of 1 to 64");
    assertThatThrownBy(() -> ApiKeys.generate("billing", Set.of()))
        .hasMessage(
            "Expected at least one role for API key 'billing' (one of client, admin), but none was"
                + " given");
  }

  @Test
  void shouldShowNoSecretOrHashInAnyToString() {
    String hash = client.fileLine().substring(client.fileLine().lastIndexOf(':') + 1);

    assertThat(authenticator.toString()).contains("billing", "ops.alice");
    assertNoSecretIn(authenticator, secretOf(client), secretOf(admin), hash);
    assertNoSecretIn(client, secretOf(client), hash);
    assertNoSecretIn(
        ApiKeyFile.read(dir.resolve("api-keys"), "k").entry("billing").orElseThrow(),
        secretOf(client),
        hash);
  }

  private Principal principal(String header) {
    return authenticator.authenticate(header).principalIfAuthenticated().orElseThrow();
  }

  static String secretOf(GeneratedApiKey key) {
    return key.presentedKey().substring(key.presentedKey().lastIndexOf('.') + 1);
  }
}
