package io.cairn.auth;

import io.cairn.auth.apikey.ApiKeyFormat;
import io.cairn.auth.apikey.ApiKeyHash;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Makes new API keys: a random secret, the key the caller presents and the line the operator adds
 * to the credentials file (which holds only the secret's hash). The presented key is shown once and
 * kept nowhere by Cairn; a lost key is replaced, not recovered.
 */
public final class ApiKeys {

  private ApiKeys() {}

  /** A new key with a secret from a fresh {@link SecureRandom}. */
  public static GeneratedApiKey generate(String keyId, Set<Role> roles) {
    return generate(keyId, roles, new SecureRandom());
  }

  /**
   * A new key.
   *
   * @param keyId the key's name in the file, logs and the audit trail: {@value
   *     ApiKeyFormat#KEY_ID_RULE}
   * @param roles at least one
   * @param random where the {@value ApiKeyFormat#SECRET_BYTES} secret bytes come from
   * @throws IllegalArgumentException when the key id is not one or no role is given
   */
  public static GeneratedApiKey generate(String keyId, Set<Role> roles, SecureRandom random) {
    Objects.requireNonNull(keyId, "keyId");
    if (!ApiKeyFormat.isKeyId(keyId)) {
      throw new IllegalArgumentException(
          "Expected a key id of "
              + ApiKeyFormat.KEY_ID_RULE
              + ", but was "
              + SafeText.quote(keyId)
              + ". Choose a name such as 'billing-service' or 'ops.alice'");
    }
    if (roles.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected at least one role for API key '"
              + keyId
              + "' (one of "
              + Role.ids()
              + "), but none was given");
    }
    byte[] bytes = new byte[ApiKeyFormat.SECRET_BYTES];
    random.nextBytes(bytes);
    String secret = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    Set<Role> held = Collections.unmodifiableSet(EnumSet.copyOf(roles));
    return new GeneratedApiKey(
        keyId,
        held,
        keyId + "." + secret,
        keyId + ":" + Role.ids(held) + ":" + ApiKeyHash.of(secret).encoded());
  }

  /**
   * A key just made.
   *
   * @param presentedKey {@code <keyId>.<secret>}: give it to the caller once, over a safe channel;
   *     it is sent as {@code Authorization: ApiKey <presentedKey>}
   * @param fileLine {@code <keyId>:<roles>:sha256:<hex>}: append it to the credentials file
   */
  public record GeneratedApiKey(
      String keyId, Set<Role> roles, String presentedKey, String fileLine) {

    /** The key id and roles only: neither the key nor its hash. */
    @Override
    public String toString() {
      return "GeneratedApiKey{" + keyId + ", roles [" + Role.ids(roles) + "]}";
    }
  }
}
