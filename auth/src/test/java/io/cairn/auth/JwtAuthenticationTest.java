package io.cairn.auth;

import static io.cairn.auth.NoSecrets.assertNoSecretIn;
import static io.cairn.auth.TestTokens.claims;
import static io.cairn.auth.TestTokens.sign;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import io.cairn.scheduler.SimClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class JwtAuthenticationTest {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private static RSAKey rsa;
  private static ECKey ec;
  private static RSAKey impostor;

  private final SimClock clock = new SimClock(NOW.toEpochMilli());

  @TempDir private Path dir;

  @BeforeAll
  static void keys() {
    rsa = TestTokens.rsaKey("rsa-1");
    ec = TestTokens.ecKey("ec-1");
    impostor = TestTokens.rsaKey("rsa-1"); // same kid, another key
  }

  @Test
  void shouldAuthenticateATokenSignedByAJwksKeyAsItsSubjectWithItsRoles() {
    Authenticator authenticator = authenticator(b -> b);
    String rs256 = sign(rsa, claims(NOW, "alice").claim("roles", List.of("admin")).build());
    String es256 = sign(ec, claims(NOW, "billing-service").claim("roles", "client").build());

    AuthOutcome outcome = authenticator.authenticate("Bearer " + rs256);

    assertThat(outcome.principalIfAuthenticated())
        .contains(new Principal("alice", Set.of(Role.ADMIN), AuthMethod.JWT));
    assertThat(authenticator.authenticate("bearer " + es256).principalIfAuthenticated())
        .contains(new Principal("billing-service", Set.of(Role.CLIENT), AuthMethod.JWT));
    assertNoSecretIn(outcome, rs256);
    assertNoSecretIn(authenticator, rs256, es256);
  }

  @Test
  void shouldRefuseEveryTokenThatIsNotRightWithItsReason() {
    // given
    Authenticator authenticator = authenticator(b -> b);
    Map<String, AuthFailure> refused =
        Map.ofEntries(
            Map.entry(
                sign(rsa, claims(NOW.minusSeconds(3600 + 61), "a").build()), AuthFailure.EXPIRED),
            Map.entry(
                sign(rsa, claims(NOW, "a").notBeforeTime(Date.from(NOW.plusSeconds(61))).build()),
                AuthFailure.NOT_YET_VALID),
            Map.entry(
                sign(rsa, claims(NOW, "a").issuer("https://other.example.com/").build()),
                AuthFailure.WRONG_ISSUER),
            Map.entry(
                sign(rsa, claims(NOW, "a").audience(List.of("other", "more")).build()),
                AuthFailure.WRONG_AUDIENCE),
            Map.entry(sign(impostor, claims(NOW, "a").build()), AuthFailure.BAD_SIGNATURE),
            Map.entry(
                TestTokens.unsigned(claims(NOW, "a").build()), AuthFailure.UNSUPPORTED_ALGORITHM),
            Map.entry(
                TestTokens.hs256WithPublicKey(rsa, claims(NOW, "a").build()),
                AuthFailure.UNSUPPORTED_ALGORITHM),
            Map.entry(
                sign(rsa, claims(NOW, "a").expirationTime(null).build()), AuthFailure.BAD_CLAIM),
            Map.entry(sign(rsa, claims(NOW, null).build()), AuthFailure.BAD_CLAIM),
            Map.entry(
                sign(TestTokens.rsaKey("rsa-9"), claims(NOW, "a").build()),
                AuthFailure.UNKNOWN_SIGNING_KEY),
            Map.entry("not.a.token", AuthFailure.INVALID_TOKEN),
            Map.entry(
                "x".repeat(io.cairn.auth.jwt.JwtVerifier.MAX_TOKEN_CHARS + 1),
                AuthFailure.INVALID_TOKEN));

    refused.forEach(
        (token, expected) -> {
          // when
          AuthOutcome outcome = authenticator.authenticate("Bearer " + token);

          // then
          assertThat(outcome).isInstanceOf(AuthOutcome.Unauthenticated.class);
          AuthOutcome.Unauthenticated rejected = (AuthOutcome.Unauthenticated) outcome;
          assertThat(rejected.failure()).as(rejected.reason()).isEqualTo(expected);
          assertThat(rejected.publicMessage()).isEqualTo(AuthOutcome.PUBLIC_MESSAGE);
          assertNoSecretIn(outcome, token);
        });
  }

  @Test
  void shouldExplainRefusalsForTheLog() {
    Authenticator authenticator = authenticator(b -> b);

    assertThat(reason(authenticator, sign(rsa, claims(NOW.minusSeconds(3661), "a").build())))
        .isEqualTo(
            "expired token (exp 2026-03-01T11:58:59Z, now 2026-03-01T12:00:00Z, clock skew 60s)");
    assertThat(
            reason(
                authenticator,
                sign(rsa, claims(NOW, "a").issuer("https://other.example.com/").build())))
        .isEqualTo("issuer 'https://other.example.com/', expected 'https://idp.example.com/'");
    assertThat(reason(authenticator, TestTokens.hs256WithPublicKey(rsa, claims(NOW, "a").build())))
        .isEqualTo("token signed with 'HS256', not RS256 or ES256");
    assertThat(reason(authenticator, TestTokens.unsigned(claims(NOW, "a").build())))
        .isEqualTo("unsigned token (alg none)");
    assertThat(reason(authenticator, sign(impostor, claims(NOW, "a").build())))
        .isEqualTo(
            "signature does not verify with key 'rsa-1' of JWKS file " + dir.resolve("jwks.json"));
  }

  @Test
  void shouldAllowTheClockSkewEitherSide() {
    Authenticator authenticator = authenticator(b -> b.clockSkew(java.time.Duration.ofSeconds(30)));
    String expiredWithinSkew = sign(rsa, claims(NOW.minusSeconds(3600 + 29), "a").build());
    String expiredBeyondSkew = sign(rsa, claims(NOW.minusSeconds(3600 + 30), "a").build());
    String startsWithinSkew =
        sign(rsa, claims(NOW, "a").notBeforeTime(Date.from(NOW.plusSeconds(30))).build());
    String startsBeyondSkew =
        sign(rsa, claims(NOW, "a").notBeforeTime(Date.from(NOW.plusSeconds(31))).build());

    assertThat(authenticated(authenticator, expiredWithinSkew)).isTrue();
    assertThat(authenticated(authenticator, expiredBeyondSkew)).isFalse();
    assertThat(authenticated(authenticator, startsWithinSkew)).isTrue();
    assertThat(authenticated(authenticator, startsBeyondSkew)).isFalse();
  }

  @Test
  void shouldRefuseAlgNoneInAnySpelling() {
    Authenticator authenticator = authenticator(b -> b);
    String payload = TestTokens.unsigned(claims(NOW, "a").build()).split("\\.")[1];
    for (String alg : List.of("none", "None", "NONE")) {
      String header =
          java.util.Base64.getUrlEncoder()
              .withoutPadding()
              .encodeToString(("{\"alg\":\"" + alg + "\",\"kid\":\"rsa-1\"}").getBytes());
      AuthOutcome outcome = authenticator.authenticate("Bearer " + header + "." + payload + ".");

      assertThat(((AuthOutcome.Unauthenticated) outcome).failure())
          .as(alg)
          .isIn(AuthFailure.UNSUPPORTED_ALGORITHM, AuthFailure.INVALID_TOKEN);
    }
  }

  @Test
  void shouldMapRoleClaimValuesAsConfigured() {
    // given a mapping that replaces the default one
    Authenticator authenticator =
        authenticator(
            b ->
                b.rolesClaim("groups")
                    .roleMapping(Map.of("cairn-admin", "admin", "cairn-user", "client")));

    // then
    assertThat(roles(authenticator, claims(NOW, "a").claim("groups", List.of("cairn-admin"))))
        .containsExactly(Role.ADMIN);
    assertThat(roles(authenticator, claims(NOW, "a").claim("groups", "staff cairn-user")))
        .containsExactly(Role.CLIENT);
    assertThat(roles(authenticator, claims(NOW, "a").claim("groups", "cairn-user,cairn-admin")))
        .containsExactly(Role.CLIENT, Role.ADMIN);
    // the default values no longer map, nor does the default claim
    assertThat(roles(authenticator, claims(NOW, "a").claim("groups", List.of("admin")))).isEmpty();
    assertThat(roles(authenticator, claims(NOW, "a").claim("roles", List.of("admin")))).isEmpty();
  }

  @Test
  void shouldAuthenticateATokenWhoseRolesMapToNothingButForbidItEverything() {
    Authenticator authenticator = authenticator(b -> b);
    String token = sign(rsa, claims(NOW, "a").claim("roles", List.of("viewer", 7)).build());

    Principal principal =
        authenticator.authenticate("Bearer " + token).principalIfAuthenticated().orElseThrow();

    assertThat(principal.roles()).isEmpty();
    assertThat(Authorizer.authorize(principal, GatewayOperations.GET_ACCOUNT).allowed()).isFalse();
  }

  @Test
  void shouldReadNestedRoleClaimsAndAnotherNameClaim() {
    Authenticator authenticator =
        authenticator(b -> b.rolesClaim("realm_access.roles").nameClaim("email"));
    String token =
        sign(
            rsa,
            claims(NOW, "f3a1-uuid")
                .claim("email", "alice@example.com")
                .claim("realm_access", Map.of("roles", List.of("client")))
                .build());

    assertThat(authenticator.authenticate("Bearer " + token).principalIfAuthenticated())
        .contains(new Principal("alice@example.com", Set.of(Role.CLIENT), AuthMethod.JWT));
  }

  @Test
  void shouldFindTheKeyByTypeWhenTheTokenHasNoKid() {
    Authenticator authenticator = authenticator(b -> b);

    assertThat(
            authenticated(authenticator, TestTokens.signWithoutKid(rsa, claims(NOW, "a").build())))
        .isTrue();
    assertThat(
            authenticated(
                authenticator, TestTokens.signWithoutKid(impostor, claims(NOW, "a").build())))
        .isFalse();
  }

  @Test
  void shouldRefuseToStartWithAJwksFileWithoutUsableKeys() throws IOException {
    Path jwks = dir.resolve("jwks.json");
    Files.writeString(jwks, "{\"keys\":[{\"kty\":\"oct\",\"k\":\"c2VjcmV0LXNlY3JldC1zZWNyZXQ\"}]}");
    AuthSettings settings =
        AuthSettings.builder()
            .enabled(true)
            .jwksFile(jwks)
            .issuer(TestTokens.ISSUER)
            .audience(TestTokens.AUDIENCE)
            .build();

    assertThatThrownBy(() -> Authenticator.create(settings, clock))
        .hasMessage(
            "Expected a JWKS (JSON with a \"keys\" array) from JWKS file "
                + jwks
                + ", but it has no key that can check RS256 or ES256 signatures (a public RSA key"
                + " of 2048 bits or more, or an EC key on P-256, with use 'sig' or none). Bearer"
                + " tokens are refused until it can be read")
        .satisfies(e -> assertNoSecretIn(e, "c2VjcmV0LXNlY3JldC1zZWNyZXQ"));
  }

  private Authenticator authenticator(UnaryOperator<AuthSettings.Builder> more) {
    Path jwks = dir.resolve("jwks.json");
    try {
      Files.writeString(jwks, TestTokens.jwks(rsa, ec));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return Authenticator.create(
        more.apply(
                AuthSettings.builder()
                    .enabled(true)
                    .jwksFile(jwks)
                    .issuer(TestTokens.ISSUER)
                    .audience(TestTokens.AUDIENCE))
            .build(),
        clock);
  }

  private static boolean authenticated(Authenticator authenticator, String token) {
    return authenticator.authenticate("Bearer " + token).principalIfAuthenticated().isPresent();
  }

  private static String reason(Authenticator authenticator, String token) {
    return ((AuthOutcome.Unauthenticated) authenticator.authenticate("Bearer " + token)).reason();
  }

  private static Set<Role> roles(Authenticator authenticator, JWTClaimsSet.Builder claims) {
    return authenticator
        .authenticate("Bearer " + sign(rsa, claims.build()))
        .principalIfAuthenticated()
        .orElseThrow()
        .roles();
  }
}
