package io.cairn.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing the module says — exception messages (with their causes), log lines, {@code toString}s —
 * holds key material: no PEM armour of a key, no run of a key file's Base64, no run of a key's
 * encoding in hexadecimal. The scenarios are every loader failure, refused reloads and refused
 * peers; the search is shown to find a key when there is one.
 */
final class NoKeyMaterialInTextTest {

  /** Long enough to be no accident, short enough to catch any fragment of a key. */
  private static final int RUN = 16;

  @TempDir Path dir;

  @Test
  void shouldKeepKeyMaterialOutOfMessagesLogsAndToStrings() throws Exception {
    Pki pki = new Pki(dir);
    PemPair good = pki.write("broker-0");
    List<String> said = new ArrayList<>();
    List<byte[]> keys = new ArrayList<>();

    try (LogCapture logs = new LogCapture()) {
      for (TlsFilesValidationTest.Failure failure : TlsFilesValidationTest.failures(pki, good)) {
        try {
          TlsMaterialSource.load(
              failure.files().get(), new SimClock(pki.now), Duration.ofSeconds(1));
          said.add("no failure for " + failure.name());
        } catch (RuntimeException e) {
          said.addAll(messages(e));
        }
      }
      said.addAll(refusedReloads(pki, good, keys));
      said.addAll(refusedPeer(pki));
      said.addAll(logs.allText());
    }

    List<String> secrets = secrets(dir, keys);
    assertThat(secrets).as("key material to look for").hasSizeGreaterThan(100);
    assertThat(said).as("what was said").hasSizeGreaterThan(20);
    assertThat(leaks(said, secrets)).isEmpty();
  }

  @Test
  void shouldFindKeyMaterialWhereThereIsSome() throws Exception {
    Pki pki = new Pki(dir);
    IssuedCertificate issued = pki.issue("broker-0");
    PemPair files = issued.writeInto(dir, "broker-0");
    String keyText = PemTexts.read(files.privateKey());
    List<String> secrets = secrets(dir, List.of(issued.privateKey().getEncoded()));
    String body = keyText.lines().filter(l -> !l.startsWith("-----")).findFirst().orElseThrow();
    String hex = HexFormat.of().formatHex(issued.privateKey().getEncoded());

    assertThat(leaks(List.of("file: " + keyText), secrets)).isNotEmpty();
    assertThat(leaks(List.of("... " + body.substring(20, 40) + " ..."), secrets)).isNotEmpty();
    assertThat(leaks(List.of("d=" + hex.substring(80, 100)), secrets)).isNotEmpty();
    assertThat(leaks(List.of("serial=1F2E3D4C5B6A7988"), secrets)).isEmpty();
  }

  /** A reload refused for a key of another certificate, and for an encrypted key. */
  private static List<String> refusedReloads(Pki pki, PemPair good, List<byte[]> keys) {
    SimClock clock = new SimClock(pki.now);
    ServerTls tls =
        ServerTls.load(Pki.identity(good), ClientAuth.NONE, clock, Duration.ofSeconds(1));
    IssuedCertificate other = pki.issue("other");
    keys.add(other.privateKey().getEncoded());
    other.writePrivateKey(good.privateKey());
    clock.advance(Duration.ofSeconds(1));
    tls.material().current();
    PemTexts.writeSecret(good.privateKey(), PemTexts.encryptedPkcs8(other.privateKey()));
    clock.advance(Duration.ofSeconds(1));
    tls.material().current();
    return List.of(
        tls.material().current().toString(),
        tls.sslContext().toString(),
        other.toString(),
        pki.ca.toString());
  }

  /** A client with a foreign CA's certificate, refused by a mutual-TLS server. */
  private static List<String> refusedPeer(Pki pki) throws Exception {
    PemPair broker = pki.write("broker-1");
    ServerTls tls =
        ServerTls.load(
            pki.identityAndTrust(broker),
            ClientAuth.REQUIRED,
            Clock.systemUTC(),
            Duration.ofSeconds(1));
    Pki foreign = new Pki(pki.dir, "Foreign CA");
    PemPair intruder = foreign.write("intruder");
    List<String> said = new ArrayList<>();
    try (TlsEchoServer server = new TlsEchoServer(tls.sslContext())) {
      try {
        TlsClients.connect(
            ClientTls.load(
                    TlsFiles.identityAndTrust(
                        Pki.chain(intruder.certificate()),
                        Pki.key(intruder.privateKey()),
                        pki.trust()),
                    Clock.systemUTC(),
                    Duration.ofSeconds(1))
                .sslContext(),
            server.port());
        said.add("the intruder was let in");
      } catch (IOException e) {
        said.addAll(messages(e));
      }
      TlsEchoServer.Outcome outcome = server.nextOutcome();
      if (outcome.failure() != null) {
        said.addAll(messages(outcome.failure()));
      }
    }
    return said;
  }

  /** The message and toString of the exception and each of its causes. */
  private static List<String> messages(Throwable e) {
    List<String> messages = new ArrayList<>();
    for (Throwable t = e; t != null; t = t.getCause()) {
      messages.add(String.valueOf(t.getMessage()));
      messages.add(t.toString());
    }
    return messages;
  }

  /**
   * Runs of {@link #RUN} characters of every key file's Base64 under {@code dir} and of each key's
   * encoding in hexadecimal, and the armour of a key.
   */
  private static List<String> secrets(Path dir, List<byte[]> keys) throws IOException {
    List<String> secrets = new ArrayList<>(List.of("PRIVATE KEY-----", "Proc-Type: 4,ENCRYPTED"));
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".key")).toList()) {
        PemTexts.read(file)
            .lines()
            .filter(l -> !l.startsWith("-----") && !l.contains(":") && l.length() >= RUN)
            .forEach(l -> runs(l, secrets));
      }
    }
    for (byte[] key : keys) {
      // the tail holds the secret scalar or exponent; the head is the algorithm's identifier
      String hex = HexFormat.of().formatHex(key);
      runs(hex.substring(hex.length() / 2), secrets);
    }
    return secrets;
  }

  private static void runs(String text, List<String> into) {
    for (int i = 0; i + RUN <= text.length(); i += RUN / 2) {
      into.add(text.substring(i, i + RUN));
    }
  }

  private static List<String> leaks(List<String> said, List<String> secrets) {
    return said.stream().filter(s -> secrets.stream().anyMatch(s::contains)).toList();
  }
}
