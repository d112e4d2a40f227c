package io.cairn.auth;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How bearer tokens are checked: where the issuer's public keys are (a JWKS file, or a URL fetched
 * and cached), which issuer and audience a token must name, and how its claims become a {@link
 * Principal}. Part of {@link AuthSettings}, which validates it (with the keys' names) when built.
 *
 * @param jwksFile a JWKS file; exactly one of this and {@code jwksUri}
 * @param jwksUri an {@code https} (or {@code http}, on a trusted network) URL serving the JWKS
 * @param issuer the {@code iss} every token must carry, exactly
 * @param audience a value the token's {@code aud} must hold (a string or one of an array)
 * @param rolesClaim the claim holding the roles: a string (values separated by spaces or commas) or
 *     an array of strings; a name with dots that is not a claim is read as a path into nested
 *     objects ({@code realm_access.roles})
 * @param nameClaim the claim naming the principal, {@code sub} by default
 * @param roleMapping claim value → role; values not in it are ignored (a token from a shared
 *     identity provider carries roles of other applications)
 * @param clockSkew how far {@code exp} and {@code nbf} may be off this machine's clock
 * @param jwksRefreshInterval how old a fetched JWKS may get before it is fetched again
 * @param jwksMinRefreshInterval the least time between two fetches, so that tokens naming unknown
 *     {@code kid}s cannot make this process hammer the identity provider
 * @param jwksTimeout connect and read timeout of one fetch
 */
public record JwtSettings(
    Optional<Path> jwksFile,
    Optional<URI> jwksUri,
    String issuer,
    String audience,
    String rolesClaim,
    String nameClaim,
    Map<String, Role> roleMapping,
    Duration clockSkew,
    Duration jwksRefreshInterval,
    Duration jwksMinRefreshInterval,
    Duration jwksTimeout) {

  public JwtSettings {
    Objects.requireNonNull(jwksFile, "jwksFile");
    Objects.requireNonNull(jwksUri, "jwksUri");
    Objects.requireNonNull(issuer, "issuer");
    Objects.requireNonNull(audience, "audience");
    Objects.requireNonNull(rolesClaim, "rolesClaim");
    Objects.requireNonNull(nameClaim, "nameClaim");
    Objects.requireNonNull(clockSkew, "clockSkew");
    Objects.requireNonNull(jwksRefreshInterval, "jwksRefreshInterval");
    Objects.requireNonNull(jwksMinRefreshInterval, "jwksMinRefreshInterval");
    Objects.requireNonNull(jwksTimeout, "jwksTimeout");
    roleMapping = Collections.unmodifiableMap(new LinkedHashMap<>(roleMapping));
  }

  /** Where the JWKS comes from, for messages: the file or the URL. */
  public String jwksSource() {
    return jwksFile.map(f -> "JWKS file " + f).orElseGet(() -> "JWKS " + jwksUri.orElseThrow());
  }
}
