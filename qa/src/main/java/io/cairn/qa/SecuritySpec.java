package io.cairn.qa;

import io.cairn.auth.ApiKeys;
import io.cairn.auth.ApiKeys.GeneratedApiKey;
import io.cairn.auth.AuthSettings;
import io.cairn.auth.Role;
import io.cairn.tls.LocalSecureFiles;
import io.cairn.tls.SecretFiles;
import io.cairn.tls.TlsFiles;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Set;

/**
 * An embedded cluster with security on: a CA of its own, a certificate the brokers share and one
 * for the gateway (TLS on every listener, mutual TLS between them), and authentication at the
 * gateway with one admin API key, which the cluster's client presents.
 *
 * @param brokerTls the brokers' files ({@code security.tls.*})
 * @param gatewayTls the gateway's files ({@code gateway.security.tls.*})
 * @param caFile what clients trust
 * @param gatewayAuth the gateway's authentication: API keys from a file holding the admin key
 * @param adminApiKey the presented admin key ({@code <keyId>.<secret>})
 */
public record SecuritySpec(
    TlsFiles brokerTls,
    TlsFiles gatewayTls,
    Path caFile,
    AuthSettings gatewayAuth,
    String adminApiKey) {

  /** Creates everything in {@code directory}, the certificates valid from {@code now}. */
  public static SecuritySpec local(Path directory, Instant now) {
    LocalSecureFiles files = LocalSecureFiles.create(directory, "embedded", now);
    GeneratedApiKey admin = ApiKeys.generate("qa-admin", Set.of(Role.ADMIN));
    Path keysFile = directory.resolve("api-keys");
    SecretFiles.writeOwnerOnly(keysFile, admin.fileLine() + "\n");
    return new SecuritySpec(
        files.issue("broker", "security.tls."),
        files.issue("gateway", "gateway.security.tls."),
        files.caFile(),
        AuthSettings.builder().keyPrefix("gateway.").enabled(true).apiKeysFile(keysFile).build(),
        admin.presentedKey());
  }

  /** Never the key. */
  @Override
  public String toString() {
    return "SecuritySpec{" + brokerTls + "; " + gatewayTls + "; api key <redacted>}";
  }
}
