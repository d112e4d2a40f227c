package io.cairn.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every log line and every other line the test suite printed holds no secret: no private key, no
 * presented API key, no bearer token, no backup master key. The build redirects each test's output
 * to {@code <module>/target/surefire-reports} and {@code failsafe-reports}; this module is built
 * last, so it reads them all (the tests of security deliberately log at DEBUG with real keys,
 * tokens and certificates). Where no module has reports yet (this module built alone) there is
 * nothing to read and the test is skipped, saying so.
 */
class NoSecretsInTestOutputTest {

  /** What a secret looks like when it leaks, by kind. */
  static final List<Pattern> SECRETS =
      List.of(
          // a PEM private key of any kind
          Pattern.compile("-----BEGIN [A-Z ]*PRIVATE KEY-----"),
          // a presented API key: <keyId>.<secret of 43 base64url characters>, as generated; the
          // secret has a digit, '-' or '_' (a 43-letter method name after a dot does not)
          Pattern.compile(
              "(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{1,64}\\.(?=[A-Za-z]*[0-9_-])[A-Za-z0-9_-]{43}"
                  + "(?![A-Za-z0-9_-])"),
          // a JWT: header.payload.signature, base64url JSON objects
          Pattern.compile("eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}"),
          // a master key ring entry: <id>=<base64 of 32 bytes>
          Pattern.compile("[A-Za-z0-9._-]{1,64}=[A-Za-z0-9+/]{43}="));

  @Test
  void shouldFindNoSecretInWhatTheTestSuitePrinted() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<Path> outputs = new ArrayList<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path module : modules.filter(Files::isDirectory).toList()) {
        for (String reports : List.of("surefire-reports", "failsafe-reports")) {
          Path dir = module.resolve("target").resolve(reports);
          if (Files.isDirectory(dir) && !module.getFileName().toString().equals("dist")) {
            try (Stream<Path> files = Files.list(dir)) {
              files
                  .filter(f -> f.getFileName().toString().endsWith("-output.txt"))
                  .forEach(outputs::add);
            }
          }
        }
      }
    }
    assumeTrue(
        !outputs.isEmpty(),
        "no module under " + root + " has test output yet: build the reactor (mvn verify)");

    List<String> leaks = new ArrayList<>();
    for (Path output : outputs) {
      List<String> lines = Files.readAllLines(output, StandardCharsets.ISO_8859_1);
      for (int i = 0; i < lines.size(); i++) {
        int number = i + 1;
        leak(lines.get(i))
            .ifPresent(kind -> leaks.add(root.relativize(output) + ":" + number + kind));
      }
    }

    assertThat(leaks).as("secrets in %d test output files", outputs.size()).isEmpty();
  }

  /** The kind of secret {@code line} holds, if any; never the secret itself. */
  static java.util.Optional<String> leak(String line) {
    for (int k = 0; k < SECRETS.size(); k++) {
      Matcher matcher = SECRETS.get(k).matcher(line);
      if (matcher.find()) {
        return java.util.Optional.of(" pattern " + k + " at column " + matcher.start());
      }
    }
    return java.util.Optional.empty();
  }

  @Test
  void shouldRecogniseEachKindOfSecret() {
    assertThat(leak("key file: -----BEGIN EC PRIVATE KEY-----")).isPresent();
    assertThat(leak("-----BEGIN PRIVATE KEY-----")).isPresent();
    assertThat(leak("authorization: ApiKey qa-admin.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdE"))
        .isPresent();
    assertThat(leak("Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ"))
        .isPresent();
    assertThat(leak("CAIRN_BACKUP_ENCRYPTION_KEYS=k1=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="))
        .isPresent();
    // what is fine to print
    assertThat(leak("backup.encryption.keys = <redacted> (set by environment variable)")).isEmpty();
    assertThat(leak("io.cairn.gateway.grpc.GrpcServer started on 127.0.0.1:26500")).isEmpty();
    assertThat(leak("qa-admin:admin:sha256:" + "ab".repeat(32))).isEmpty();
    assertThat(leak("CERTIFICATE serial 1234, subject CN=broker-0")).isEmpty();
    assertThat(leak("at io.cairn.Test.shouldFailThePartitionOnAnUndecodableRecord(Test.java:1)"))
        .isEmpty();
  }
}
