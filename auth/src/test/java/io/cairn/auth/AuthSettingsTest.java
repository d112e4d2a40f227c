package io.cairn.auth;

import static io.cairn.auth.NoSecrets.assertNoSecretIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class AuthSettingsTest {

  @Test
  void shouldBeOffByDefaultWithTheDocumentedDefaults() {
    AuthSettings settings = AuthSettings.disabled();

    assertThat(settings.enabled()).isFalse();
    assertThat(settings.apiKeysReloadInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(settings.jwt()).isEmpty();
    assertThat(AuthSettings.KEY_API_KEYS_FILE).isEqualTo("security.auth.apiKeysFile");
    assertThat(AuthSettings.KEY_JWKS_URI).isEqualTo("security.auth.jwt.jwksUri");
    assertThat(AuthSettings.KEY_ISSUER).isEqualTo("security.auth.jwt.issuer");
    assertThat(AuthSettings.KEY_AUDIENCE).isEqualTo("security.auth.jwt.audience");
    assertThat(AuthSettings.KEY_ROLES_CLAIM).isEqualTo("security.auth.jwt.rolesClaim");
  }

  @Test
  void shouldTakeJwtDefaultsOnceAJwksIsSet() {
    JwtSettings jwt =
        AuthSettings.builder()
            .jwksUri("https://idp.example.com/jwks.json")
            .issuer("https://idp.example.com/")
            .audience("cairn")
            .build()
            .jwt()
            .orElseThrow();

    assertThat(jwt.rolesClaim()).isEqualTo("roles");
    assertThat(jwt.nameClaim()).isEqualTo("sub");
    assertThat(jwt.roleMapping()).isEqualTo(Map.of("client", Role.CLIENT, "admin", Role.ADMIN));
    assertThat(jwt.clockSkew()).isEqualTo(Duration.ofSeconds(60));
    assertThat(jwt.jwksSource()).isEqualTo("JWKS https://idp.example.com/jwks.json");
  }

  @Test
  void shouldRefuseAuthenticationOnWithoutAnyWayToAuthenticate() {
    InvalidAuthSettingsException e =
        catchThrowableOfType(
            InvalidAuthSettingsException.class,
            () -> AuthSettings.builder().keyPrefix("gateway.").enabled(true).build());

    assertThat(e)
        .hasMessage(
            "Expected valid authentication settings, but one is not: Expected"
                + " gateway.security.auth.apiKeysFile, gateway.security.auth.jwt.jwksFile or"
                + " gateway.security.auth.jwt.jwksUri when gateway.security.auth.enabled is true,"
                + " but none is set: no caller could authenticate. Fix them in the configuration"
                + " file or its CAIRN_* environment variables");
  }

  @Test
  void shouldReportEveryBadValueAtOnceNamingItsKeyAndValue() {
    // when
    InvalidAuthSettingsException e =
        catchThrowableOfType(
            InvalidAuthSettingsException.class,
            () ->
                AuthSettings.builder()
                    .keyPrefix("gateway.")
                    .enabled(true)
                    .apiKeysFile(Path.of("/etc/cairn/api-keys"))
                    .apiKeysReloadInterval(Duration.ZERO)
                    .jwksFile(Path.of("/etc/cairn/jwks.json"))
                    .jwksUri("ftp://idp.example.com/jwks.json")
                    .rolesClaim("")
                    .roleMapping(Map.of("cairn-admin", "root"))
                    .clockSkew(Duration.ofHours(1))
                    .jwksRefreshInterval(Duration.ofMinutes(1))
                    .jwksMinRefreshInterval(Duration.ofMinutes(2))
                    .jwksTimeout(Duration.ofMillis(10))
                    .build());

    // then
    assertThat(e.problems())
        .containsExactly(
            "Expected gateway.security.auth.jwt.roleMapping.cairn-admin to be one of client,"
                + " admin, but was 'root'",
            "Expected gateway.security.auth.apiKeysReloadInterval in [1s, 1h], but was 0s",
            "Expected exactly one of gateway.security.auth.jwt.jwksFile and"
                + " gateway.security.auth.jwt.jwksUri for bearer tokens, but both are set",
            "Expected gateway.security.auth.jwt.jwksUri to be an https:// (or http://) URL with a"
                + " host, but was 'ftp://idp.example.com/jwks.json'. For a file, set"
                + " gateway.security.auth.jwt.jwksFile",
            "Expected gateway.security.auth.jwt.issuer (the 'iss' every token must carry) when"
                + " bearer tokens are accepted, but it is not set",
            "Expected gateway.security.auth.jwt.audience (a value every token's 'aud' must hold)"
                + " when bearer tokens are accepted, but it is not set",
            "Expected gateway.security.auth.jwt.rolesClaim to be 1 to 256 characters without"
                + " control characters, but was ''",
            "Expected at least one entry in gateway.security.auth.jwt.roleMapping, but it is"
                + " empty: no token could hold a role",
            "Expected gateway.security.auth.jwt.clockSkew in [0s, 5m], but was 1h",
            "Expected gateway.security.auth.jwt.jwksMinRefreshInterval (2m) at most"
                + " gateway.security.auth.jwt.jwksRefreshInterval (1m), but it is longer",
            "Expected gateway.security.auth.jwt.jwksTimeout in [100ms, 1m], but was 10ms");
  }

  @Test
  void shouldNotShowAJwksUrlThatHoldsAPassword() {
    InvalidAuthSettingsException withUserInfo =
        catchThrowableOfType(
            InvalidAuthSettingsException.class,
            () ->
                AuthSettings.builder()
                    .jwksUri("https://cairn:hunter2-secret@idp.example.com/jwks.json")
                    .issuer("i")
                    .audience("a")
                    .build());
    InvalidAuthSettingsException unparsable =
        catchThrowableOfType(
            InvalidAuthSettingsException.class,
            () ->
                AuthSettings.builder()
                    .jwksUri("https://cairn:hunter2 secret@idp")
                    .issuer("i")
                    .audience("a")
                    .build());

    assertThat(withUserInfo.problems())
        .containsExactly(
            "Expected security.auth.jwt.jwksUri without user information (user:password@), but"
                + " it has some (the URL is not shown)");
    assertThat(unparsable.problems())
        .singleElement()
        .asString()
        .startsWith("Expected security.auth.jwt.jwksUri to be an https:// (or http://) URL, but");
    assertNoSecretIn(withUserInfo, "hunter2");
    assertNoSecretIn(unparsable, "hunter2");
  }

  @Test
  void shouldRefuseIssuerOrAudienceWithoutAJwks() {
    InvalidAuthSettingsException e =
        catchThrowableOfType(
            InvalidAuthSettingsException.class,
            () -> AuthSettings.builder().issuer("https://idp.example.com/").audience("c").build());

    assertThat(e.problems())
        .containsExactly(
            "Expected exactly one of security.auth.jwt.jwksFile and security.auth.jwt.jwksUri for"
                + " bearer tokens, but neither is set");
  }

  @Test
  void shouldValidateARecordBuiltWithoutTheBuilderToo() {
    InvalidAuthSettingsException e =
        catchThrowableOfType(
            InvalidAuthSettingsException.class,
            () ->
                new AuthSettings(
                    "", true, Optional.empty(), Duration.ofHours(2), Optional.empty()));

    assertThat(e.problems()).hasSize(2);
  }
}
