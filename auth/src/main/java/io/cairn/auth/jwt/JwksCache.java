package io.cairn.auth.jwt;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import io.cairn.scheduler.Clock;
import java.io.IOException;
import java.text.ParseException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The issuer's public keys, read from a {@link JwksSource} and kept: read again when they are older
 * than the refresh interval, and when a token names a {@code kid} they do not have (the issuer
 * rotated its keys), but never twice within the minimum refresh interval, so that tokens with made
 * up {@code kid}s cannot make this process flood the identity provider.
 *
 * <p>Only keys that can check an RS256 or ES256 signature are kept: public RSA keys of 2048 bits or
 * more and public EC keys on P-256, whose {@code use} (if given) is {@code sig}. A read that fails
 * keeps the keys read before and logs one WARN until a read succeeds again.
 *
 * <p>Reads block the request that needs them. When the keys are only due for their periodic
 * refresh, one request reads and the others go on with the keys they have; when a {@code kid} is
 * unknown, the requests wait for the one read under way instead of starting their own.
 */
public final class JwksCache {

  private static final Logger LOG = LoggerFactory.getLogger(JwksCache.class);

  /** The keys and when they were read ({@link Clock#nanos()}). */
  private record Keys(List<JWK> usable, long readNanos) {}

  private final JwksSource source;
  private final Clock clock;
  private final long refreshIntervalNanos;
  private final long minRefreshIntervalNanos;
  private final ReentrantLock reading = new ReentrantLock();

  private volatile Keys keys;

  /** Counts reads attempted, so a waiter sees whether one happened while it waited. */
  private volatile long attempts;

  private volatile long lastAttemptNanos;
  private volatile String lastFailure = "no read yet";
  private boolean failing;

  private JwksCache(
      JwksSource source, Clock clock, Duration refreshInterval, Duration minRefreshInterval) {
    this.source = source;
    this.clock = clock;
    this.refreshIntervalNanos = refreshInterval.toNanos();
    this.minRefreshIntervalNanos = minRefreshInterval.toNanos();
  }

  /**
   * A cache that reads its source once now.
   *
   * @param required whether a failed first read is an error (a file the operator names must be
   *     readable at start) or only a WARN (an identity provider may be down for a while; tokens are
   *     refused until it answers)
   * @throws IllegalArgumentException when {@code required} and the first read fails
   */
  public static JwksCache open(
      JwksSource source,
      Clock clock,
      Duration refreshInterval,
      Duration minRefreshInterval,
      boolean required) {
    JwksCache cache = new JwksCache(source, clock, refreshInterval, minRefreshInterval);
    cache.reading.lock();
    try {
      cache.read();
    } finally {
      cache.reading.unlock();
    }
    if (cache.keys == null && required) {
      throw new IllegalArgumentException(cache.lastFailure);
    }
    return cache;
  }

  /**
   * The keys that may have signed a token.
   *
   * @param kid the token's {@code kid}; null: every key of the algorithm's type
   * @return the matching keys, possibly none; empty when no JWKS could be read yet
   */
  Optional<List<JWK>> candidates(String kid, JWSAlgorithm algorithm) {
    Keys known = keys;
    if (known == null || clock.nanos() - known.readNanos() >= refreshIntervalNanos) {
      refresh(known == null);
      known = keys;
      if (known == null) {
        return Optional.empty();
      }
    }
    List<JWK> matching = matching(known, kid, algorithm);
    if (matching.isEmpty() && kid != null) {
      refresh(true);
      matching = matching(keys, kid, algorithm);
    }
    return Optional.of(matching);
  }

  /** Why the last read failed, for messages; never key material. */
  String lastFailure() {
    return lastFailure;
  }

  private void refresh(boolean wait) {
    long seen = attempts;
    if (wait) {
      reading.lock();
    } else if (!reading.tryLock()) {
      return; // another request is reading; go on with the keys there are
    }
    try {
      boolean readMeanwhile = attempts != seen;
      boolean rateLimited = clock.nanos() - lastAttemptNanos < minRefreshIntervalNanos;
      if (!readMeanwhile && !rateLimited) {
        read();
      }
    } finally {
      reading.unlock();
    }
  }

  /** One read; the caller holds {@link #reading}. */
  private void read() {
    attempts++;
    lastAttemptNanos = clock.nanos();
    try {
      String text = source.read();
      List<JWK> usable = usable(JWKSet.parse(text));
      if (usable.isEmpty()) {
        throw new ParseException(
            "it has no key that can check RS256 or ES256 signatures (a public RSA key of 2048"
                + " bits or more, or an EC key on P-256, with use 'sig' or none)",
            0);
      }
      keys = new Keys(usable, lastAttemptNanos);
      if (failing) {
        LOG.info("Read {} again: {} usable keys", source.describe(), usable.size());
      }
      failing = false;
    } catch (IOException | ParseException | RuntimeException e) {
      String why = e instanceof ParseException ? e.getMessage() : e.toString();
      lastFailure =
          "Expected a JWKS (JSON with a \"keys\" array) from "
              + source.describe()
              + ", but "
              + why
              + (keys == null
                  ? ". Bearer tokens are refused until it can be read"
                  : ". Keeping the " + keys.usable().size() + " keys read before");
      if (!failing) {
        LOG.warn(lastFailure);
      }
      failing = true;
    }
  }

  private static List<JWK> usable(JWKSet set) {
    return set.getKeys().stream()
        .map(JWK::toPublicJWK)
        .filter(Objects::nonNull)
        .filter(k -> k.getKeyUse() == null || KeyUse.SIGNATURE.equals(k.getKeyUse()))
        .filter(
            k ->
                (k instanceof RSAKey rsa && rsa.size() >= 2048)
                    || (k instanceof ECKey ec && Curve.P_256.equals(ec.getCurve())))
        .toList();
  }

  private static List<JWK> matching(Keys known, String kid, JWSAlgorithm algorithm) {
    return known.usable().stream()
        .filter(k -> kid == null || kid.equals(k.getKeyID()))
        .filter(k -> k.getAlgorithm() == null || k.getAlgorithm().equals(algorithm))
        .filter(
            k ->
                JWSAlgorithm.RS256.equals(algorithm)
                    ? k instanceof RSAKey
                    : JWSAlgorithm.ES256.equals(algorithm) && k instanceof ECKey)
        .toList();
  }

  @Override
  public String toString() {
    Keys known = keys;
    return "JwksCache{"
        + source.describe()
        + ", "
        + (known == null ? "not read" : known.usable().size() + " keys")
        + "}";
  }
}
