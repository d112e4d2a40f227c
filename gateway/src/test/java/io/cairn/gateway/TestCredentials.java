package io.cairn.gateway;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.cairn.auth.ApiKeys;
import io.cairn.auth.ApiKeys.GeneratedApiKey;
import io.cairn.auth.AuthSettings;
import io.cairn.auth.Role;
import io.grpc.Metadata;
import io.grpc.stub.AbstractStub;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Real credentials for a secured gateway, as an operator would set them up: an owner-only API key
 * file with an admin and a client key (made by {@link ApiKeys#generate}), a JWKS file with the
 * public half of an RSA key, and tokens signed with it (or with a key the gateway does not know).
 * Remembers every secret it hands out, so that a test can look for them where they must not be.
 */
public final class TestCredentials {
  public static final String ISSUER = "https://idp.example.test/";
  public static final String AUDIENCE = "cairn";

  public final Path apiKeysFile;
  public final Path jwksFile;
  public final GeneratedApiKey admin;
  public final GeneratedApiKey client;
  private final RSAKey signingKey;
  private final RSAKey unknownKey;
  private final List<String> secrets = new CopyOnWriteArrayList<>();

  /** Writes {@code api-keys} and {@code jwks.json} into {@code directory}. */
  public TestCredentials(Path directory) {
    SecureRandom random = new SecureRandom();
    admin = ApiKeys.generate("ops.admin", Set.of(Role.ADMIN), random);
    client = ApiKeys.generate("billing-service", Set.of(Role.CLIENT), random);
    remember(admin);
    remember(client);
    signingKey = rsaKey("idp-1");
    unknownKey = rsaKey("idp-1"); // the same kid, another key: a forgery
    try {
      apiKeysFile = directory.resolve("api-keys");
      Files.writeString(apiKeysFile, admin.fileLine() + "\n" + client.fileLine() + "\n");
      Files.setPosixFilePermissions(apiKeysFile, PosixFilePermissions.fromString("rw-------"));
      jwksFile = directory.resolve("jwks.json");
      Files.writeString(jwksFile, new JWKSet(signingKey.toPublicJWK()).toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Authentication on, API keys from the file and tokens checked against the JWKS file. */
  public AuthSettings settings() {
    return AuthSettings.builder()
        .keyPrefix(GatewayConfig.AUTH_KEY_PREFIX)
        .enabled(true)
        .apiKeysFile(apiKeysFile)
        .jwksFile(jwksFile)
        .issuer(ISSUER)
        .audience(AUDIENCE)
        .clockSkew(Duration.ZERO)
        .build();
  }

  /** {@code ApiKey <adminKey>}: the authorization value of the admin key. */
  public String adminAuthorization() {
    return "ApiKey " + admin.presentedKey();
  }

  /** {@code ApiKey <clientKey>}. */
  public String clientAuthorization() {
    return "ApiKey " + client.presentedKey();
  }

  /** The admin key's id with a made-up secret of the right shape. */
  public String wrongSecretAuthorization() {
    String made = "ops.admin." + "A".repeat(43);
    secrets.add(made.substring("ops.admin.".length()));
    return "ApiKey " + made;
  }

  /** A key id the file does not have, with a secret of the right shape. */
  public String unknownKeyAuthorization() {
    String secret = "B".repeat(43);
    secrets.add(secret);
    return "ApiKey nobody." + secret;
  }

  /** {@code Bearer <jwt>} for {@code subject} with {@code role}, valid for an hour. */
  public String bearer(String subject, Role role) {
    return bearer(signingKey, subject, role, Instant.now().plusSeconds(3600));
  }

  /** A token that expired a minute ago. */
  public String expiredBearer(String subject, Role role) {
    return bearer(signingKey, subject, role, Instant.now().minusSeconds(60));
  }

  /** A token signed by a key the JWKS does not hold (under the JWKS key's kid). */
  public String foreignBearer(String subject, Role role) {
    return bearer(unknownKey, subject, role, Instant.now().plusSeconds(3600));
  }

  /** Every secret handed out so far: presented keys, their secrets, tokens and their parts. */
  public List<String> secrets() {
    return List.copyOf(secrets);
  }

  /** {@code stub} sending {@code authorization} with every call. */
  public static <S extends AbstractStub<S>> S withAuthorization(S stub, String authorization) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), authorization);
    return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  private String bearer(RSAKey key, String subject, Role role, Instant expires) {
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(ISSUER)
            .audience(AUDIENCE)
            .subject(subject)
            .claim("roles", List.of(role.id()))
            .issueTime(Date.from(expires.minusSeconds(7200)))
            .expirationTime(Date.from(expires))
            .build();
    try {
      SignedJWT jwt =
          new SignedJWT(
              new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
      jwt.sign(new RSASSASigner(key));
      String token = jwt.serialize();
      secrets.add(token);
      // the signature alone is as secret as the token; header and claims are not
      secrets.add(token.substring(token.lastIndexOf('.') + 1));
      return "Bearer " + token;
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private void remember(GeneratedApiKey key) {
    secrets.add(key.presentedKey());
    secrets.add(key.presentedKey().substring(key.keyId().length() + 1));
    // the stored hash is no secret, but no log line has a use for it either
    secrets.add(key.fileLine().substring(key.fileLine().lastIndexOf(':') + 1));
  }

  private static RSAKey rsaKey(String kid) {
    try {
      return new RSAKeyGenerator(2048).keyID(kid).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }
}
