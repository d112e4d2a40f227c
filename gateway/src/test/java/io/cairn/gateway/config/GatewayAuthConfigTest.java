package io.cairn.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.auth.AuthSettings;
import io.cairn.auth.JwtSettings;
import io.cairn.auth.Role;
import io.cairn.config.ConfigException;
import io.cairn.config.ConfigSetting;
import io.cairn.gateway.GatewayConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code gateway.security.auth.*} read into {@link AuthSettings}, its rules reported as the
 * gateway's configuration errors, and what TLS and authentication together allow to listen beyond
 * this machine.
 */
final class GatewayAuthConfigTest {
  private static final String SOURCE = "config file gateway.yaml";
  private static final String BASE =
      """
      gateway:
        brokers: [127.0.0.1:26502]
      """;
  private static final String TLS =
      "    tls: {enabled: true, certificateFile: /c.crt, privateKeyFile: /c.key,"
          + " trustedCaFile: /ca.crt}\n";
  private static final String AUTH = "    auth: {enabled: true, apiKeysFile: /etc/cairn/keys}\n";

  private static GatewayConfig parse(String yaml, Map<String, String> env) {
    return GatewayConfigReader.parse(yaml, SOURCE, env).config();
  }

  @Test
  void shouldLeaveAuthenticationOffByDefaultWithTheGatewaysKeyPrefix() {
    AuthSettings auth = parse(BASE, Map.of()).auth();

    assertThat(auth.enabled()).isFalse();
    assertThat(auth.keyPrefix()).isEqualTo("gateway.");
    assertThat(auth.apiKeysFile()).isEmpty();
    assertThat(auth.jwt()).isEmpty();
    assertThat(auth.apiKeysReloadInterval())
        .isEqualTo(AuthSettings.DEFAULT_API_KEYS_RELOAD_INTERVAL);
  }

  @Test
  void shouldReadEveryAuthenticationKey() {
    String yaml =
        BASE
            + """
          security:
            auth:
              enabled: true
              apiKeysFile: /etc/cairn/api-keys
              apiKeysReloadInterval: 30s
              jwt:
                jwksUri: https://idp.example.com/.well-known/jwks.json
                issuer: https://idp.example.com/
                audience: cairn
                rolesClaim: realm_access.roles
                nameClaim: preferred_username
                roleMapping: {cairn-admin: admin, cairn-user: client}
                clockSkew: 10s
                jwksRefreshInterval: 1h
                jwksMinRefreshInterval: 1m
                jwksTimeout: 2s
        """;

    AuthSettings auth = parse(yaml, Map.of()).auth();

    assertThat(auth.enabled()).isTrue();
    assertThat(auth.apiKeysFile()).contains(Path.of("/etc/cairn/api-keys"));
    assertThat(auth.apiKeysReloadInterval()).isEqualTo(Duration.ofSeconds(30));
    JwtSettings jwt = auth.jwt().orElseThrow();
    assertThat(jwt.jwksUri()).contains(URI.create("https://idp.example.com/.well-known/jwks.json"));
    assertThat(jwt.jwksFile()).isEmpty();
    assertThat(jwt.issuer()).isEqualTo("https://idp.example.com/");
    assertThat(jwt.audience()).isEqualTo("cairn");
    assertThat(jwt.rolesClaim()).isEqualTo("realm_access.roles");
    assertThat(jwt.nameClaim()).isEqualTo("preferred_username");
    assertThat(jwt.roleMapping())
        .containsExactly(
            Map.entry("cairn-admin", Role.ADMIN), Map.entry("cairn-user", Role.CLIENT));
    assertThat(jwt.clockSkew()).isEqualTo(Duration.ofSeconds(10));
    assertThat(jwt.jwksRefreshInterval()).isEqualTo(Duration.ofHours(1));
    assertThat(jwt.jwksMinRefreshInterval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(jwt.jwksTimeout()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void shouldTakeTheDefaultsOfAuthSettings() {
    String yaml =
        BASE
            + """
          security:
            auth:
              jwt: {jwksFile: /etc/cairn/jwks.json, issuer: me, audience: cairn}
        """;

    JwtSettings jwt = parse(yaml, Map.of()).auth().jwt().orElseThrow();

    assertThat(jwt.rolesClaim()).isEqualTo(AuthSettings.DEFAULT_ROLES_CLAIM);
    assertThat(jwt.nameClaim()).isEqualTo(AuthSettings.DEFAULT_NAME_CLAIM);
    assertThat(jwt.roleMapping()).isEqualTo(AuthSettings.DEFAULT_ROLE_MAPPING);
    assertThat(jwt.clockSkew()).isEqualTo(AuthSettings.DEFAULT_CLOCK_SKEW);
    assertThat(jwt.jwksRefreshInterval()).isEqualTo(AuthSettings.DEFAULT_JWKS_REFRESH_INTERVAL);
    assertThat(jwt.jwksMinRefreshInterval())
        .isEqualTo(AuthSettings.DEFAULT_JWKS_MIN_REFRESH_INTERVAL);
    assertThat(jwt.jwksTimeout()).isEqualTo(AuthSettings.DEFAULT_JWKS_TIMEOUT);
  }

  @Test
  void shouldLetEnvironmentVariablesSetAuthentication() {
    EffectiveGatewayConfig effective =
        GatewayConfigReader.parse(
            BASE,
            SOURCE,
            Map.of(
                "CAIRN_GATEWAY_SECURITY_AUTH_ENABLED", "true",
                "CAIRN_GATEWAY_SECURITY_AUTH_APIKEYSFILE", "/run/secrets/keys"));

    assertThat(effective.config().auth().enabled()).isTrue();
    assertThat(effective.config().auth().apiKeysFile()).contains(Path.of("/run/secrets/keys"));
    assertThat(effective.settings())
        .contains(
            new ConfigSetting(
                "gateway.security.auth.enabled",
                "true",
                "set by environment variable CAIRN_GATEWAY_SECURITY_AUTH_ENABLED"));
  }

  @Test
  void shouldReportBadValuesAndTheRulesOfAuthSettingsWithTheirKeys() {
    String yaml =
        BASE
            + """
          security:
            auth:
              enabled: true
              apiKeysReloadInterval: 0s
              jwt:
                jwksFile: /etc/cairn/jwks.json
                jwksUri: https://idp.example.com/jwks
                clockSkew: 1h
                roleMapping: {cairn-admin: root}
        """;

    assertThatThrownBy(() -> GatewayConfigReader.parse(yaml, SOURCE, Map.of()))
        .isInstanceOf(ConfigException.class)
        .satisfies(
            e ->
                assertThat(((ConfigException) e).violations())
                    .containsExactlyInAnyOrder(
                        "Expected gateway.security.auth.apiKeysReloadInterval to be a duration in"
                            + " [1s, 1h], but was '0s' (set in "
                            + SOURCE
                            + "; environment variable"
                            + " CAIRN_GATEWAY_SECURITY_AUTH_APIKEYSRELOADINTERVAL)",
                        "Expected gateway.security.auth.jwt.clockSkew to be a duration in [0, 5m],"
                            + " but was '1h' (set in "
                            + SOURCE
                            + "; environment variable CAIRN_GATEWAY_SECURITY_AUTH_JWT_CLOCKSKEW)",
                        "Expected gateway.security.auth.jwt.roleMapping.cairn-admin to be one of"
                            + " [client, admin], but was 'root' (set in "
                            + SOURCE
                            + "; environment variable"
                            + " CAIRN_GATEWAY_SECURITY_AUTH_JWT_ROLEMAPPING_CAIRN-ADMIN)",
                        "Expected exactly one of gateway.security.auth.jwt.jwksFile and"
                            + " gateway.security.auth.jwt.jwksUri for bearer tokens, but both are"
                            + " set",
                        "Expected gateway.security.auth.jwt.issuer (the 'iss' every token must"
                            + " carry) when bearer tokens are accepted, but it is not set",
                        "Expected gateway.security.auth.jwt.audience (a value every token's 'aud'"
                            + " must hold) when bearer tokens are accepted, but it is not set",
                        "Expected at least one entry in gateway.security.auth.jwt.roleMapping, but"
                            + " it is empty: no token could hold a role"));
  }

  @Test
  void shouldRefuseAuthenticationWithoutAWayToAuthenticate() {
    assertThatThrownBy(
            () ->
                GatewayConfigReader.parse(
                    BASE, SOURCE, Map.of("CAIRN_GATEWAY_SECURITY_AUTH_ENABLED", "true")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(
            "Expected gateway.security.auth.apiKeysFile, gateway.security.auth.jwt.jwksFile or"
                + " gateway.security.auth.jwt.jwksUri when gateway.security.auth.enabled is true,"
                + " but none is set: no caller could authenticate");
  }

  @Test
  void shouldServeBeyondThisMachineWithTlsAndAuthenticationWithoutAllowingInsecure() {
    String yaml =
        BASE + "  grpc: {host: 0.0.0.0}\n  http: {host: 0.0.0.0}\n  security:\n" + TLS + AUTH;

    GatewayConfig config = parse(yaml, Map.of());

    assertThat(config.allowInsecure()).isFalse();
    assertThat(config.exposedListeners().any()).isFalse();
  }

  @Test
  void shouldRefuseAListenerBeyondThisMachineNamingTheSafeguardMissing() {
    String listeners = BASE + "  grpc: {host: 0.0.0.0}\n  http: {host: 0.0.0.0}\n  security:\n";

    assertThatThrownBy(() -> parse(listeners + TLS, Map.of()))
        .hasMessageContaining(
            "Expected gateway.grpc.host 0.0.0.0, gateway.http.host 0.0.0.0 to be a loopback"
                + " address (127.0.0.1, ::1, localhost), since its connections are not"
                + " authenticated, but they are not. Set gateway.security.auth.enabled: true, bind"
                + " a loopback address, or set gateway.security.allowInsecure: true to accept"
                + " unauthenticated listeners on the network");
    assertThatThrownBy(() -> parse(listeners + AUTH, Map.of()))
        .hasMessageContaining(
            "since its connections are not encrypted, but they are not. Set"
                + " gateway.security.tls.enabled: true, bind a loopback address");
    assertThat(
            parse(listeners + AUTH + "    allowInsecure: true\n", Map.of())
                .exposedListeners()
                .warning())
        .startsWith(
            "Serving plaintext connections beyond this machine on gateway.grpc.host 0.0.0.0,"
                + " gateway.http.host 0.0.0.0 (gateway.security.allowInsecure: true)");
  }

  @Test
  void shouldAcceptTheTransportBeyondThisMachineWithTlsAlone() {
    String exposed = BASE + "  transport: {host: 0.0.0.0}\n  security:\n";

    assertThat(parse(exposed + TLS, Map.of()).exposedListeners().any()).isFalse();
    assertThatThrownBy(() -> parse(exposed + AUTH, Map.of()))
        .hasMessageContaining(
            "Expected gateway.transport.host 0.0.0.0 to be a loopback address (127.0.0.1, ::1,"
                + " localhost), since its connections are neither encrypted nor authenticated, but"
                + " it is not. Set gateway.security.tls.enabled: true, bind a loopback address, or"
                + " set gateway.security.allowInsecure: true");
  }
}
