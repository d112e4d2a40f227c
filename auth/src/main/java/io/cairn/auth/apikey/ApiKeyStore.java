package io.cairn.auth.apikey;

import io.cairn.auth.AuthFailure;
import io.cairn.auth.AuthMethod;
import io.cairn.auth.AuthOutcome;
import io.cairn.auth.Principal;
import io.cairn.scheduler.Clock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API keys of the credentials file, checked against presented keys, and kept up to date with
 * the file so that keys are added and revoked without a restart.
 *
 * <p>Reloading rides on the requests: at most once per reload interval (on the injected clock) a
 * request looks at the file's stamp (modification time, size, identity); only a changed stamp makes
 * it read the file. A file that turns bad (a broken line, open permissions, gone) keeps the keys
 * read before and logs one WARN for that version of the file; a good version replaces the keys and
 * logs at INFO. Another thread that finds a check under way does not wait for it.
 *
 * <p>Thread-safe: the keys are one immutable {@link ApiKeyFile} behind a volatile field.
 */
public final class ApiKeyStore {

  private static final Logger LOG = LoggerFactory.getLogger(ApiKeyStore.class);

  /**
   * Compared against when the key id is unknown, so that an unknown id costs the same hash and
   * comparison as a known one and the time taken does not tell which ids exist.
   */
  private static final ApiKeyHash NO_KEY = ApiKeyHash.of("no key has this secret, it is too short");

  private final Path path;
  private final String settingKey;
  private final Clock clock;
  private final long reloadIntervalNanos;
  private final ReentrantLock checking = new ReentrantLock();

  private volatile ApiKeyFile current;
  private volatile long lastCheckNanos;

  /** The stamp of the version that failed to load, so it is reported once; null when none. */
  private FileStamp failed;

  private boolean missingReported;

  private ApiKeyStore(Path path, String settingKey, Clock clock, Duration reloadInterval) {
    this.path = path;
    this.settingKey = settingKey;
    this.clock = clock;
    this.reloadIntervalNanos = reloadInterval.toNanos();
    this.current = ApiKeyFile.read(path, settingKey);
    this.lastCheckNanos = clock.nanos();
  }

  /**
   * Reads the file for the first time.
   *
   * @param settingKey the key that names the file, for messages
   * @throws InvalidApiKeyFileException when it cannot be used: a process does not start with a bad
   *     credentials file
   */
  public static ApiKeyStore open(
      Path path, String settingKey, Clock clock, Duration reloadInterval) {
    ApiKeyStore store = new ApiKeyStore(path, settingKey, clock, reloadInterval);
    LOG.info(
        "Read {} API keys from {} ({}); checked for changes every {} ms",
        store.current.keyIds().size(),
        path,
        settingKey,
        reloadInterval.toMillis());
    return store;
  }

  /**
   * Checks a presented key.
   *
   * @param presented what follows {@code ApiKey } in the header: {@code <keyId>.<secret>}
   */
  public AuthOutcome authenticate(String presented) {
    int dot = presented.lastIndexOf('.');
    String keyId = dot < 0 ? "" : presented.substring(0, dot);
    String secret = dot < 0 ? "" : presented.substring(dot + 1);
    if (!ApiKeyFormat.isKeyId(keyId) || !ApiKeyFormat.isSecret(secret)) {
      // neither part is shown: a malformed key may be all secret
      return new AuthOutcome.Unauthenticated(
          AuthFailure.MALFORMED, "API key not in the form <keyId>.<secret>");
    }
    reloadIfDue();
    Optional<ApiKeyEntry> entry = current.entry(keyId);
    boolean matches = entry.map(e -> e.hash()).orElse(NO_KEY).matches(secret);
    if (entry.isEmpty()) {
      return new AuthOutcome.Unauthenticated(
          AuthFailure.UNKNOWN_KEY, "unknown API key id '" + keyId + "'");
    }
    if (!matches) {
      return new AuthOutcome.Unauthenticated(
          AuthFailure.WRONG_SECRET, "wrong secret for API key id '" + keyId + "'");
    }
    return new AuthOutcome.Authenticated(
        new Principal(keyId, entry.get().roles(), AuthMethod.API_KEY));
  }

  /** Looks at the file when the reload interval has passed since the last look. */
  public void reloadIfDue() {
    if (clock.nanos() - lastCheckNanos < reloadIntervalNanos || !checking.tryLock()) {
      return;
    }
    try {
      long now = clock.nanos();
      if (now - lastCheckNanos >= reloadIntervalNanos) {
        lastCheckNanos = now;
        reloadIfChanged();
      }
    } finally {
      checking.unlock();
    }
  }

  private void reloadIfChanged() {
    FileStamp stamp;
    try {
      stamp = FileStamp.of(path);
    } catch (IOException e) {
      if (!missingReported) {
        missingReported = true;
        LOG.warn(
            "Expected API key file {} ({}) to be readable, but {}. Keeping the {} keys read"
                + " before; empty the file to revoke every key",
            path,
            settingKey,
            e.toString(),
            current.keyIds().size());
      }
      return;
    }
    missingReported = false;
    if (stamp.sameAs(current.stamp()) || stamp.sameAs(failed)) {
      return;
    }
    try {
      ApiKeyFile next = ApiKeyFile.read(path, settingKey);
      LOG.info(
          "Reloaded API key file {}: {} keys (were {})",
          path,
          next.keyIds().size(),
          current.keyIds().size());
      current = next;
      failed = null;
    } catch (InvalidApiKeyFileException e) {
      failed = stamp;
      LOG.warn(
          "{} Keeping the {} keys read before until the file is corrected",
          e.getMessage(),
          current.keyIds().size());
    }
  }

  /** The keys in use now. */
  public ApiKeyFile current() {
    return current;
  }

  @Override
  public String toString() {
    return "ApiKeyStore{" + current + "}";
  }
}
