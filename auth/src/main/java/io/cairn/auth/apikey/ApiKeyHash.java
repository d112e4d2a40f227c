package io.cairn.auth.apikey;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The hash of an API key's secret as the credentials file stores it: {@code sha256:<64 lowercase
 * hex digits>}, SHA-256 over the UTF-8 bytes of the secret as presented. The file therefore holds
 * nothing a caller could present.
 *
 * <p>Why a fast hash and not PBKDF2 or bcrypt: those slow down guessing of passwords, which people
 * choose from a small space. A generated secret is 32 random bytes (256 bits); no hash speed makes
 * 2^256 guesses feasible, so slowness would only cost every request its verification time (or a
 * cache of verified secrets in memory) and buy nothing. Secrets people make up are not protected
 * this way, which is why keys should come from {@code ApiKeys.generate}.
 *
 * <p>{@link #matches} compares in constant time. Neither {@link #toString()} nor any message shows
 * the digest.
 */
public final class ApiKeyHash {

  /** The only scheme so far; the prefix leaves room for another. */
  public static final String SCHEME = "sha256";

  private static final Pattern ENCODED = Pattern.compile("sha256:[0-9a-fA-F]{64}");
  private static final HexFormat HEX = HexFormat.of();

  private final byte[] digest;

  private ApiKeyHash(byte[] digest) {
    this.digest = digest;
  }

  /** The hash as the file writes it, or empty when {@code encoded} is not {@code sha256:<hex>}. */
  public static Optional<ApiKeyHash> parse(String encoded) {
    if (!ENCODED.matcher(encoded).matches()) {
      return Optional.empty();
    }
    return Optional.of(
        new ApiKeyHash(HEX.parseHex(encoded, SCHEME.length() + 1, encoded.length())));
  }

  /** The hash of {@code secret}. */
  public static ApiKeyHash of(String secret) {
    return new ApiKeyHash(sha256(secret));
  }

  /** Whether {@code secret} hashes to this hash; in time independent of where they differ. */
  public boolean matches(String secret) {
    return MessageDigest.isEqual(digest, sha256(secret));
  }

  /** {@code sha256:<hex>}, for the credentials file only: never log it. */
  public String encoded() {
    return SCHEME + ":" + HEX.formatHex(digest);
  }

  private static byte[] sha256(String secret) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(
          "Expected SHA-256 in every Java runtime, but this one has none", e);
    }
  }

  /** The scheme only. */
  @Override
  public String toString() {
    return "ApiKeyHash{" + SCHEME + "}";
  }
}
