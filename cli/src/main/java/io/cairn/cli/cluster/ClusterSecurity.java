package io.cairn.cli.cluster;

import io.cairn.auth.ApiKeys;
import io.cairn.auth.ApiKeys.GeneratedApiKey;
import io.cairn.auth.Role;
import io.cairn.cli.CliException;
import io.cairn.cli.ExitCode;
import io.cairn.tls.LocalSecureFiles;
import io.cairn.tls.SecretFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code --secure} sets up in a local cluster's {@code tls/} directory: a CA of its own, a
 * certificate and key for every broker ({@code broker-<i>.crt/.key}) and the gateway, an admin API
 * key ({@code admin.apikey}; the gateway's {@code api-keys} holds only its hash) and the master
 * keys that encrypt its backups ({@code backup-master.keys}); every secret owner-only. The
 * configuration files written afterwards turn TLS, authentication and backup encryption on ({@link
 * ClusterConfigFiles}); clients trust {@code tls/ca.crt} and present the admin key.
 */
public final class ClusterSecurity {

  /** The id of the master key a secure local cluster generates. */
  static final String MASTER_KEY_ID = "local-1";

  private ClusterSecurity() {}

  /**
   * Creates the CA, the certificates and the master keys, unless the directory has them.
   *
   * @param masterKeysFrom another cluster's master key file to copy (to restore its encrypted
   *     backups); empty: a new key
   * @throws CliException exit 2 if the directory holds a cluster set up without TLS
   */
  public static void setUp(
      ClusterDirectory dir, ClusterLayout layout, Optional<Path> masterKeysFrom, Instant now) {
    if (dir.secure()) {
      return;
    }
    if (Files.exists(dir.configFile(ClusterDirectory.brokerName(0)))) {
      throw new CliException(
          ExitCode.USAGE,
          "Expected a new cluster directory for --secure, but "
              + dir.root()
              + " holds a cluster set up without TLS. Use another --dir, or remove the directory"
              + " to start afresh");
    }
    LocalSecureFiles files = LocalSecureFiles.create(dir.tlsDirectory(), layout.clusterId(), now);
    for (int nodeId = 0; nodeId < layout.brokers(); nodeId++) {
      files.issue(ClusterDirectory.brokerName(nodeId), "security.tls.");
    }
    files.issue(ClusterDirectory.GATEWAY, "gateway.security.tls.");
    GeneratedApiKey admin = ApiKeys.generate("local-admin", Set.of(Role.ADMIN));
    writeOwnerOnly(dir.apiKeysFile(), admin.fileLine() + "\n");
    writeOwnerOnly(dir.adminKeyFile(), admin.presentedKey() + "\n");
    writeMasterKeys(dir.masterKeyFile(), masterKeysFrom);
  }

  /** Copies the master keys of {@code from}, or writes a new one. */
  private static void writeMasterKeys(Path file, Optional<Path> from) {
    String keys;
    if (from.isPresent()) {
      try {
        keys = Files.readString(from.get(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new CliException(
            ExitCode.FAILED, "Expected to read " + from.get() + ", but " + e.getMessage(), e);
      }
    } else {
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      keys =
          "# Master keys of this cluster's encrypted backups: keep a copy, without it no backup"
              + " can be restored.\n"
              + MASTER_KEY_ID
              + "="
              + Base64.getEncoder().encodeToString(key)
              + "\n";
    }
    writeOwnerOnly(file, keys);
  }

  private static void writeOwnerOnly(Path file, String text) {
    try {
      SecretFiles.writeOwnerOnly(file, text);
    } catch (UncheckedIOException e) {
      throw new CliException(ExitCode.FAILED, e.getMessage(), e);
    }
  }
}
