package io.cairn.tls;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An endpoint's TLS material, loaded from its {@link TlsFiles} at start and reloaded when the files
 * change, so that certificates can be renewed without a restart.
 *
 * <p><b>Start.</b> {@link #load} reads and validates every file and throws {@link
 * TlsConfigurationException} for the first problem: a listener never starts with material it could
 * not serve.
 *
 * <p><b>Reload.</b> {@link #current()} is called on every handshake (by {@link ReloadingKeyManager}
 * and {@link ReloadingTrustManager}). At most once per check interval it reads the files again (a
 * few kilobytes; no thread of its own) and compares a SHA-256 of their bytes with the material in
 * use: content, not timestamps, so a file replaced within the same second, or through a symbolic
 * link, is seen too. Changed files are validated like at start; valid ones replace the material
 * whole (one INFO line: subject, serial, notAfter), refused ones leave the material in use in place
 * and log one WARN naming the file and the reason (once per distinct content, so a half-replaced
 * pair does not log at every check). Only one handshake checks at a time; the others go on with the
 * material in use. {@link #checkNow()} checks at once, for callers that want to check on a timer of
 * their own.
 *
 * <p>Time comes from the injected {@link Clock}: the check interval, and "valid now" for the
 * certificates' validity windows.
 */
public final class TlsMaterialSource {

  /** How often the files are checked for changes when the caller does not say. */
  public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofSeconds(10);

  private static final Logger LOG = LoggerFactory.getLogger(TlsMaterialSource.class);

  /** The material in use and the one before it, whose alias a handshake may still hold. */
  private record Generations(TlsMaterial current, TlsMaterial previous) {}

  private final TlsFiles files;
  private final Clock clock;
  private final Duration checkInterval;
  private final ReentrantLock checking = new ReentrantLock();

  private volatile Generations generations;
  private volatile Instant nextCheck;

  // guarded by checking
  private long generation;
  private String lastRefusal;

  private TlsMaterialSource(TlsFiles files, Clock clock, Duration checkInterval) {
    this.files = files;
    this.clock = clock;
    this.checkInterval = checkInterval;
  }

  /**
   * Loads and validates the files now.
   *
   * @param checkInterval how long at least between two checks for changed files; positive
   * @throws TlsConfigurationException naming the key and file of the first problem found
   */
  public static TlsMaterialSource load(TlsFiles files, Clock clock, Duration checkInterval) {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(clock, "clock");
    if (checkInterval == null || checkInterval.isNegative() || checkInterval.isZero()) {
      throw new IllegalArgumentException(
          "Expected a positive interval between checks of the TLS files, but was "
              + checkInterval
              + " ("
              + files
              + "). Give a positive interval, e.g. "
              + DEFAULT_CHECK_INTERVAL
              + ".");
    }
    TlsMaterialSource source = new TlsMaterialSource(files, clock, checkInterval);
    source.checking.lock();
    try {
      Instant now = clock.instant();
      TlsMaterial material =
          MaterialLoader.parse(files, MaterialLoader.read(files), now, source.nextAlias());
      source.generations = new Generations(material, material);
      source.nextCheck = now.plus(checkInterval);
      source.logInUse("Loaded", material);
    } finally {
      source.checking.unlock();
    }
    return source;
  }

  /**
   * The material to use now; checks the files first when the interval has passed and no other
   * thread is checking. Never throws for a bad file: that is logged and the material in use kept.
   */
  public TlsMaterial current() {
    if (!clock.instant().isBefore(nextCheck) && checking.tryLock()) {
      try {
        Instant now = clock.instant();
        if (!now.isBefore(nextCheck)) {
          reloadIfChanged(now);
        }
      } finally {
        checking.unlock();
      }
    }
    return generations.current();
  }

  /**
   * Checks the files now, whatever the interval, waiting for a check in progress.
   *
   * @return whether new material was taken into use
   */
  public boolean checkNow() {
    checking.lock();
    try {
      return reloadIfChanged(clock.instant());
    } finally {
      checking.unlock();
    }
  }

  /** The files this source reads. */
  public TlsFiles files() {
    return files;
  }

  /** The clock the source reads time from. */
  public Clock clock() {
    return clock;
  }

  /** The least time between two checks for changes. */
  public Duration checkInterval() {
    return checkInterval;
  }

  /**
   * The material a key-manager alias stands for: the one in use or the one before it (a handshake
   * that chose its alias just before a swap still gets a matching chain and key); null otherwise.
   */
  TlsMaterial byAlias(String alias) {
    Generations now = generations;
    if (now.current().alias().equals(alias)) {
      return now.current();
    }
    return now.previous().alias().equals(alias) ? now.previous() : null;
  }

  private boolean reloadIfChanged(Instant now) {
    nextCheck = now.plus(checkInterval);
    TlsMaterial inUse = generations.current();
    MaterialLoader.Contents contents;
    try {
      contents = MaterialLoader.read(files);
    } catch (TlsConfigurationException e) {
      refuse(e.getMessage(), e);
      return false;
    }
    if (contents.fingerprint().equals(inUse.fingerprint())) {
      lastRefusal = null; // back to the files in use: a later refusal is news again
      return false;
    }
    TlsMaterial material;
    try {
      material = MaterialLoader.parse(files, contents, now, nextAlias());
    } catch (TlsConfigurationException e) {
      refuse(contents.fingerprint(), e);
      return false;
    }
    generations = new Generations(material, inUse);
    lastRefusal = null;
    logInUse("Reloaded", material);
    return true;
  }

  /** One WARN per distinct refused content (or, when a file could not be read, per reason). */
  private void refuse(String refusal, TlsConfigurationException e) {
    if (refusal.equals(lastRefusal)) {
      return;
    }
    lastRefusal = refusal;
    TlsMaterial inUse = generations.current();
    LOG.warn(
        "Expected changed TLS files to be usable, but they were refused; the material loaded"
            + " before stays in use ({}): {}",
        inUse.certificate().map(CertificateText::identify).orElse("trusted CAs only"),
        e.getMessage());
  }

  private String nextAlias() {
    generation++;
    return "cairn-tls-" + generation;
  }

  private void logInUse(String verb, TlsMaterial material) {
    String identity =
        material
            .certificate()
            .map(
                c ->
                    "certificate subject="
                        + c.getSubjectX500Principal().getName()
                        + ", serial="
                        + CertificateText.serial(c)
                        + ", notAfter="
                        + c.getNotAfter().toInstant()
                        + " ("
                        + files.certificateChain().orElseThrow()
                        + ")")
            .orElse("no certificate");
    String trust =
        files
            .trustedCertificates()
            .map(
                f ->
                    "; trusted CAs "
                        + CertificateText.subjects(material.trustedCertificates())
                        + " ("
                        + f
                        + ")")
            .orElse("");
    LOG.info("{} TLS material, now in use: {}{}", verb, identity, trust);
  }
}
