package io.cairn.backups3;

import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3Errors;
import io.cairn.backups3.client.S3RequestException;
import io.cairn.backups3.manifest.ConditionalWriteProbe;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the store checks with the server when it opens, so that a wrong setting fails at start with
 * the key to fix instead of at the first backup: the bucket exists and the credentials may list it,
 * objects can be written, read back and deleted (with the SSE-C key, if any), with object lock
 * configured that the bucket has object lock and versioning on, and whether the server honours
 * conditional writes (probe objects).
 */
final class StartupCheck {

  private static final Logger LOG = LoggerFactory.getLogger(StartupCheck.class);

  private final S3BackupStoreConfig config;
  private final S3Access s3;

  StartupCheck(S3BackupStoreConfig config, S3Access s3) {
    this.config = config;
    this.s3 = s3;
  }

  /**
   * @return whether manifest transitions use conditional writes
   * @throws S3BackupStoreStartException naming the key to fix
   */
  boolean run(String probeToken) {
    checkBucket();
    config.objectLock().ifPresent(this::checkObjectLock);
    try {
      checkReadBack(ConditionalWriteProbe.checkReadWrite(s3, probeToken));
    } catch (S3RequestException e) {
      throw failure(
          e,
          "write, read and delete a probe object under "
              + s3.url(s3.layout().probeKey(probeToken)));
    }
    if (config.conditionalWrites() == ConditionalWrites.DISABLED) {
      LOG.info(
          "Conditional writes disabled by configuration: manifest changes are "
              + "read-check-write, atomic within this process only ({})",
          config.location());
      return false;
    }
    ConditionalWriteProbe.Result result;
    try {
      result = ConditionalWriteProbe.probe(s3, probeToken);
    } catch (S3RequestException e) {
      throw failure(e, "write a probe object under " + s3.url(s3.layout().probeKey(probeToken)));
    }
    if (result.supported()) {
      LOG.info(
          "The server honours If-None-Match and If-Match: manifest changes are conditional "
              + "writes ({})",
          config.location());
      return true;
    }
    if (config.conditionalWrites() == ConditionalWrites.REQUIRED) {
      String key = S3BackupStoreConfig.CONDITIONAL_WRITES_KEY;
      throw new S3BackupStoreStartException(
          key,
          "Expected the server to honour conditional "
              + "writes (If-None-Match: * and If-Match), but "
              + result.detail()
              + " ("
              + S3BackupStoreConfig.CONTEXT
              + ", key "
              + key
              + ", "
              + config.location()
              + "). Use a "
              + "server that supports them, or set "
              + key
              + " to auto.",
          null);
    }
    LOG.warn(
        "The server does not honour conditional writes ({}): manifest changes are "
            + "read-check-write, atomic within this process only ({}). Let only one broker write "
            + "a backup id at a time.",
        result.detail(),
        config.location());
    return false;
  }

  /**
   * Lists one manifest key: proves the bucket exists and the credentials may list it, with the same
   * permission (and prefix) that listings need — unlike HeadBucket, it passes a policy that allows
   * {@code s3:ListBucket} only under the base path.
   */
  private void checkBucket() {
    String prefix = s3.layout().manifestsPrefix();
    try {
      s3.list(prefix, 1, null, null);
    } catch (S3RequestException e) {
      throw failure(e, "list bucket '" + config.bucket() + "'");
    }
  }

  /**
   * The probe must read back exactly what was written. A server that stored the SDK's aws-chunked
   * upload body as the content (framing and checksum trailer included) is named as such, with the
   * setting that avoids chunked uploads; any other difference is the server's.
   */
  private void checkReadBack(ConditionalWriteProbe.ReadBack readBack) {
    if (readBack.matches()) {
      return;
    }
    int written = readBack.written().length;
    int read = readBack.read().length;
    if (!config.legacyMd5() && AwsChunkedFraming.wraps(readBack.read(), readBack.written())) {
      String key = S3BackupStoreConfig.LEGACY_MD5_KEY;
      throw new S3BackupStoreStartException(
          key,
          "Expected to read back the "
              + written
              + " bytes written to "
              + readBack.url()
              + ", but got "
              + read
              + ": the same bytes inside the SDK's aws-chunked upload framing (chunk header and"
              + " checksum trailer). The server stores a chunked upload's body as the object"
              + " instead of decoding it, so every object would be corrupt ("
              + S3BackupStoreConfig.CONTEXT
              + ", "
              + config.location()
              + ", key "
              + key
              + "). Set "
              + key
              + ": true, which uploads with Content-MD5 and without chunked encoding.",
          null);
    }
    String key = S3BackupStoreConfig.ENDPOINT_KEY;
    throw new S3BackupStoreStartException(
        key,
        "Expected to read back the "
            + written
            + " bytes written to "
            + readBack.url()
            + ", but got "
            + read
            + " other bytes: the server does not return what it was given ("
            + S3BackupStoreConfig.CONTEXT
            + ", "
            + config.location()
            + ", key "
            + key
            + ")"
            + (config.legacyMd5()
                ? ""
                : ". If it mishandles the SDK's newer checksums, try "
                    + S3BackupStoreConfig.LEGACY_MD5_KEY
                    + ": true")
            + ". Check that "
            + key
            + " points at an S3-compatible server.",
        null);
  }

  /**
   * Object lock only protects on a bucket created with it: anything else would let the store run
   * while its objects stay deletable, the very thing the setting is there to prevent.
   */
  private void checkObjectLock(ObjectLock lock) {
    String key = S3BackupStoreConfig.OBJECT_LOCK_MODE_KEY;
    String enabled;
    try {
      var configuration =
          s3.calls()
              .join(
                  "GetObjectLockConfiguration",
                  s3.url(""),
                  () -> s3.client().getObjectLockConfiguration(r -> r.bucket(config.bucket())))
              .objectLockConfiguration();
      enabled = configuration == null ? null : configuration.objectLockEnabledAsString();
    } catch (S3RequestException e) {
      if (!lacksFeature(e)) {
        throw failure(
            e, "read the bucket's object lock configuration (s3:GetBucketObjectLockConfiguration)");
      }
      throw lockRefused(
          key,
          "the server answered "
              + S3Errors.describe(e.getCause() == null ? e : e.getCause())
              + " when asked for its object lock configuration");
    }
    if (!"Enabled".equals(enabled)) {
      throw lockRefused(key, "its object lock configuration says ObjectLockEnabled=" + enabled);
    }
    String versioning;
    try {
      versioning =
          s3.calls()
              .join(
                  "GetBucketVersioning",
                  s3.url(""),
                  () -> s3.client().getBucketVersioning(r -> r.bucket(config.bucket())))
              .statusAsString();
    } catch (S3RequestException e) {
      if (!lacksFeature(e)) {
        throw failure(e, "read whether the bucket keeps versions (s3:GetBucketVersioning)");
      }
      throw lockRefused(
          key,
          "the server answered "
              + S3Errors.describe(e.getCause() == null ? e : e.getCause())
              + " when asked whether it keeps versions");
    }
    if (!"Enabled".equals(versioning)) {
      throw lockRefused(
          key, "versioning is " + (versioning == null ? "not enabled" : versioning) + " on it");
    }
    LOG.info(
        "Object lock: every object is written with a {} retention ({})", lock, config.location());
  }

  /**
   * Whether an answer says the server or bucket lacks the feature (501, or 404 / 400 naming the
   * missing configuration), rather than refusing the credentials or failing.
   */
  private static boolean lacksFeature(S3RequestException e) {
    int status = e.statusCode();
    return status == 501
        || ((status == 404 || status == 400) && !e.errorCode().equals("NoSuchBucket"));
  }

  private S3BackupStoreStartException lockRefused(String key, String why) {
    return new S3BackupStoreStartException(
        key,
        "Expected bucket '"
            + config.bucket()
            + "' to have S3 Object Lock enabled (with versioning), since "
            + key
            + " is set, but "
            + why
            + " ("
            + S3BackupStoreConfig.CONTEXT
            + ", "
            + config.location()
            + "). Object lock can only be turned on when a bucket is created: create one with"
            + " object lock, or remove "
            + key
            + " and "
            + S3BackupStoreConfig.OBJECT_LOCK_PERIOD_KEY
            + ".",
        null);
  }

  private S3BackupStoreStartException failure(S3RequestException e, String action) {
    int status = e.statusCode();
    String answer = S3Errors.describe(e.getCause() == null ? e : e.getCause());
    String where = S3BackupStoreConfig.CONTEXT + ", " + config.location();
    if (status == 404 || e.errorCode().equals("NoSuchBucket")) {
      String key = S3BackupStoreConfig.BUCKET_KEY;
      return new S3BackupStoreStartException(
          key,
          "Expected bucket '"
              + config.bucket()
              + "' to exist, but the server answered "
              + answer
              + " ("
              + where
              + ", key "
              + key
              + "). Create the bucket, or set "
              + key
              + " to an existing one.",
          e);
    }
    if (config.sseCustomerKey().isPresent()
        && !e.isTransient()
        && (status == 501 || answer.toLowerCase(Locale.ROOT).contains("encryption"))) {
      String key = S3BackupStoreConfig.SSE_CUSTOMER_KEY_KEY;
      return new S3BackupStoreStartException(
          key,
          "Expected the server to "
              + action
              + " with a customer-provided key (SSE-C), but it answered "
              + answer
              + " ("
              + where
              + ", key "
              + key
              + "). Use a server that supports SSE-C (over HTTPS), or remove "
              + key
              + ".",
          e);
    }
    if (status == 401 || status == 403) {
      String key = S3BackupStoreConfig.ACCESS_KEY_ID_KEY;
      String credentials =
          config.hasStaticCredentials()
              ? "the configured accessKeyId/secretAccessKey"
              : "the credentials of the SDK's default chain";
      return new S3BackupStoreStartException(
          key,
          "Expected "
              + credentials
              + " to be allowed to "
              + action
              + ", but the server answered "
              + answer
              + " ("
              + where
              + ", key "
              + key
              + " and "
              + S3BackupStoreConfig.SECRET_ACCESS_KEY_KEY
              + "). Fix the keys, or grant "
              + "them the permissions listed in docs/s3-backup-store.md.",
          e);
    }
    if (status == 301
        || e.errorCode().equals("PermanentRedirect")
        || e.errorCode().equals("AuthorizationHeaderMalformed")
        || e.errorCode().equals("IllegalLocationConstraintException")) {
      String key = S3BackupStoreConfig.REGION_KEY;
      return new S3BackupStoreStartException(
          key,
          "Expected bucket '"
              + config.bucket()
              + "' in region '"
              + config.region()
              + "', but the server answered "
              + answer
              + " ("
              + where
              + ", key "
              + key
              + "). Set "
              + key
              + " to the bucket's region.",
          e);
    }
    if (status < 0 && answer.contains("credentials")) {
      String key = S3BackupStoreConfig.ACCESS_KEY_ID_KEY;
      return new S3BackupStoreStartException(
          key,
          "Expected credentials from the SDK's default "
              + "chain, but "
              + answer
              + " ("
              + where
              + ", key "
              + key
              + "). Set "
              + key
              + " and "
              + S3BackupStoreConfig.SECRET_ACCESS_KEY_KEY
              + ", or provide credentials to the "
              + "default chain (environment, profile, instance role).",
          e);
    }
    if (status < 0) {
      String key = S3BackupStoreConfig.ENDPOINT_KEY;
      String endpoint =
          config.endpoint().map(Object::toString).orElse("AWS S3 in region " + config.region());
      return new S3BackupStoreStartException(
          key,
          "Expected "
              + endpoint
              + " to answer when "
              + "asked to "
              + action
              + ", but "
              + answer
              + (e.attempts() > 1 ? " (after " + e.attempts() + " attempts)" : "")
              + " ("
              + where
              + ", key "
              + key
              + "). Check the URL, that the server runs, and the network "
              + "between this node and it.",
          e);
    }
    if (e.isTransient()) {
      // The endpoint answered, so it is an S3 server; it failed the request itself (a 500 on a
      // listing, throttling). No setting is at fault: naming one would send the operator the
      // wrong way.
      return new S3BackupStoreStartException(
          null,
          "Expected the server to "
              + action
              + ", but it failed the request with "
              + answer
              + (e.attempts() > 1 ? " (after " + e.attempts() + " attempts)" : "")
              + " ("
              + where
              + "): an error on the server's side (a server error, throttling or a conflict),"
              + " not a wrong setting. See the server's logs and load; the store can start once"
              + " its requests succeed.",
          e);
    }
    String key = S3BackupStoreConfig.ENDPOINT_KEY;
    return new S3BackupStoreStartException(
        key,
        "Expected the server to let this store "
            + action
            + ", but it answered "
            + answer
            + " ("
            + where
            + ", key "
            + key
            + "). Check that "
            + key
            + " points at an S3-compatible server.",
        e);
  }
}
