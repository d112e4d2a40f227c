package io.cairn.gateway;

import static io.cairn.gateway.TestCredentials.withAuthorization;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.cairn.auth.Role;
import io.cairn.gateway.security.AuditLog;
import io.cairn.gateway.v1.CreateAccountRequest;
import io.cairn.gateway.v1.DepositRequest;
import io.cairn.gateway.v1.GetBackupRequest;
import io.cairn.gateway.v1.ListBackupsRequest;
import io.cairn.gateway.v1.TakeBackupRequest;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Every log line a secured gateway (and its clients, in the same JVM) writes while it serves real
 * keys and tokens, right and wrong, over gRPC and HTTP — every logger at DEBUG, gRPC's and netty's
 * included, but for the two the distribution's logging pins — holds no secret; the audit trail
 * included.
 */
final class NoSecretsInLogsTest {

  /**
   * The loggers the distribution's {@code logback.xml} (and the command line tool's) pin at INFO:
   * gRPC's HTTP/2 frame loggers print every request's headers at DEBUG, its {@code authorization}
   * with them.
   */
  private static final Map<String, Level> DISTRIBUTION_LEVELS =
      Map.of(
          "io.grpc.netty.shaded.io.grpc.netty.NettyServerHandler", Level.INFO,
          "io.grpc.netty.shaded.io.grpc.netty.NettyClientHandler", Level.INFO);

  private static final List<Path> LOGBACK_FILES =
      List.of(
          Path.of("../dist/src/main/dist/config/logback.xml"),
          Path.of("../cli/src/main/resources/logback.xml"));

  @Test
  void shouldPinTheFrameLoggersInEveryLoggingConfigurationShipped() throws Exception {
    for (Path file : LOGBACK_FILES) {
      String xml = Files.readString(file);
      DISTRIBUTION_LEVELS.forEach(
          (name, level) ->
              assertThat(xml)
                  .as(file.toString())
                  .contains("<logger name=\"" + name + "\" level=\"" + level + "\"/>"));
    }
  }

  @Test
  void shouldWriteNoKeyOrTokenToAnyLogLine(@TempDir Path dir) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.setContext(context);
    appender.start();
    Map<String, Level> levels = new HashMap<>();
    levels.put(org.slf4j.Logger.ROOT_LOGGER_NAME, root.getLevel());
    DISTRIBUTION_LEVELS
        .keySet()
        .forEach(name -> levels.put(name, context.getLogger(name).getLevel()));
    root.addAppender(appender);
    root.setLevel(Level.DEBUG);
    DISTRIBUTION_LEVELS.forEach((name, level) -> context.getLogger(name).setLevel(level));
    TestCredentials credentials = new TestCredentials(dir);
    try {
      try (GatewayHarness harness =
          new GatewayHarness(3, 2, config -> config.auth(credentials.settings())).awaitReady()) {
        exercise(harness, credentials);
      }
    } finally {
      root.detachAppender(appender);
      levels.forEach((name, level) -> context.getLogger(name).setLevel(level));
    }

    List<String> lines = new ArrayList<>();
    synchronized (appender) {
      for (ILoggingEvent event : appender.list) {
        lines.add(render(event));
      }
    }
    assertThat(lines).as("log lines captured").hasSizeGreaterThan(20);
    assertThat(lines).anyMatch(line -> line.startsWith(AuditLog.LOGGER + " "));
    assertThat(lines).anyMatch(line -> line.contains("Refused grpc"));
    List<String> leaks = new ArrayList<>();
    for (String line : lines) {
      for (String secret : credentials.secrets()) {
        if (line.contains(secret)) {
          leaks.add(line);
        }
      }
    }
    assertThat(leaks).as("lines holding a key, a secret or a token").isEmpty();
  }

  /** Every kind of call: allowed and refused, keys and tokens, gRPC and HTTP. */
  private static void exercise(GatewayHarness harness, TestCredentials credentials) {
    List<String> authorizations =
        List.of(
            credentials.adminAuthorization(),
            credentials.clientAuthorization(),
            credentials.wrongSecretAuthorization(),
            credentials.unknownKeyAuthorization(),
            credentials.bearer("alice", Role.ADMIN),
            credentials.bearer("shop", Role.CLIENT),
            credentials.expiredBearer("alice", Role.ADMIN),
            credentials.foreignBearer("alice", Role.ADMIN),
            // a bare key without its scheme, a key in the wrong scheme, a secret without its id,
            // a token as an API key
            credentials.admin.presentedKey(),
            "Bearer " + credentials.client.presentedKey(),
            "ApiKey "
                + credentials
                    .admin
                    .presentedKey()
                    .substring(credentials.admin.keyId().length() + 1),
            "ApiKey " + credentials.bearer("mallory", Role.ADMIN).substring("Bearer ".length()));
    long backupId = 0;
    for (String authorization : authorizations) {
      long id = ++backupId;
      var ledger = withAuthorization(harness.ledger, authorization);
      var admin = withAuthorization(harness.admin, authorization);
      catchThrowable(
          () ->
              ledger.createAccount(
                  CreateAccountRequest.newBuilder().setAccountId("acct-" + id).build()));
      catchThrowable(
          () ->
              ledger.deposit(
                  DepositRequest.newBuilder().setAccountId("missing").setAmount(5).build()));
      catchThrowable(() -> admin.listBackups(ListBackupsRequest.getDefaultInstance()));
      catchThrowable(
          () -> admin.takeBackup(TakeBackupRequest.newBuilder().setBackupId(id).build()));
      catchThrowable(() -> admin.getBackup(GetBackupRequest.newBuilder().setBackupId(999).build()));
      catchThrowable(
          () ->
              harness.send(
                  HttpRequest.newBuilder(harness.uri("/actuator/backups"))
                      .header("Authorization", authorization)
                      .GET()));
      catchThrowable(
          () ->
              harness.send(
                  HttpRequest.newBuilder(harness.uri("/actuator/backups/abc"))
                      .header("Authorization", authorization)
                      .DELETE()));
    }
  }

  private static String render(ILoggingEvent event) {
    StringBuilder line =
        new StringBuilder(event.getLoggerName()).append(' ').append(event.getFormattedMessage());
    event.getMDCPropertyMap().forEach((key, value) -> line.append(' ').append(value));
    IThrowableProxy thrown = event.getThrowableProxy();
    if (thrown != null) {
      line.append(' ').append(ThrowableProxyUtil.asString(thrown));
    }
    return line.toString();
  }
}
