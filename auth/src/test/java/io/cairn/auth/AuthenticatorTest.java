package io.cairn.auth;

import static io.cairn.auth.NoSecrets.assertNoSecretIn;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.auth.ApiKeys.GeneratedApiKey;
import io.cairn.scheduler.SimClock;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What every transport gets from the header alone: schemes, absence, size, authentication off. */
final class AuthenticatorTest {

  private final SimClock clock = new SimClock(1_767_225_600_000L);
  private final GeneratedApiKey key = ApiKeys.generate("billing", Set.of(Role.CLIENT));

  @TempDir private Path dir;

  @Test
  void shouldMakeEveryCallerTheAnonymousAdministratorWhenOff() {
    Authenticator off = Authenticator.create(AuthSettings.disabled(), clock);

    assertThat(off.enabled()).isFalse();
    assertThat(off.authenticate((String) null).principalIfAuthenticated())
        .contains(Principal.anonymous());
    assertThat(off.authenticate("Bearer whatever").principalIfAuthenticated())
        .contains(Principal.anonymous());
  }

  @Test
  void shouldRejectARequestWithoutCredentials() {
    Authenticator authenticator = apiKeysOnly();

    for (AuthOutcome outcome :
        Arrays.asList(
            authenticator.authenticate((String) null),
            authenticator.authenticate(""),
            authenticator.authenticate("   "),
            authenticator.authenticate(Optional.empty()))) {
      assertThat(outcome)
          .isEqualTo(
              new AuthOutcome.Unauthenticated(AuthFailure.MISSING, "no Authorization header"));
    }
  }

  @Test
  void shouldRejectOtherSchemesAndBareCredentialsWithoutShowingThem() {
    Authenticator authenticator = apiKeysOnly();

    AuthOutcome basic = authenticator.authenticate("Basic YWxpY2U6aHVudGVyMg==");
    AuthOutcome bare = authenticator.authenticate(key.presentedKey());
    AuthOutcome tooLong = authenticator.authenticate("ApiKey " + "x".repeat(20_000));

    assertThat(basic)
        .isEqualTo(
            new AuthOutcome.Unauthenticated(
                AuthFailure.UNSUPPORTED_SCHEME, "scheme 'Basic' is not ApiKey or Bearer"));
    assertThat(bare)
        .isEqualTo(
            new AuthOutcome.Unauthenticated(
                AuthFailure.MALFORMED, "Authorization not in the form <scheme> <credentials>"));
    assertThat(((AuthOutcome.Unauthenticated) tooLong).failure()).isEqualTo(AuthFailure.MALFORMED);
    assertNoSecretIn(basic, "YWxpY2U6aHVudGVyMg==");
    assertNoSecretIn(bare, ApiKeyAuthenticationTest.secretOf(key));
  }

  @Test
  void shouldRejectAMethodThisProcessIsNotConfiguredFor() {
    Authenticator authenticator = apiKeysOnly();

    AuthOutcome outcome = authenticator.authenticate("Bearer eyJhbGciOiJSUzI1NiJ9.e30.c2ln");

    assertThat(outcome)
        .isEqualTo(
            new AuthOutcome.Unauthenticated(
                AuthFailure.METHOD_NOT_CONFIGURED,
                "bearer token presented, but no JWKS is set (security.auth.jwt.jwksFile or"
                    + " security.auth.jwt.jwksUri)"));
    assertThat(((AuthOutcome.Unauthenticated) outcome).publicMessage())
        .isEqualTo(AuthOutcome.PUBLIC_MESSAGE);
  }

  @Test
  void shouldAcceptExtraSpacesAroundTheCredentials() {
    Authenticator authenticator = apiKeysOnly();

    assertThat(
            authenticator
                .authenticate("  ApiKey   " + key.presentedKey() + "  ")
                .principalIfAuthenticated())
        .map(Principal::name)
        .contains("billing");
  }

  private Authenticator apiKeysOnly() {
    return Authenticator.create(
        AuthSettings.builder()
            .enabled(true)
            .apiKeysFile(CredentialsFile.write(dir, key.fileLine()))
            .build(),
        clock);
  }
}
