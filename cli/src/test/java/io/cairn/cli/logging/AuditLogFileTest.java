package io.cairn.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.joran.spi.JoranException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The logging configurations shipped (the distribution's and the one in the command line tool's
 * jar) send the audit trail to {@code <cairn.log.dir>/audit.jsonl} alone, one message a line, and
 * create that file only when a line is written: a process that audits nothing leaves no file.
 */
final class AuditLogFileTest {

  @ParameterizedTest
  @ValueSource(
      strings = {"src/main/resources/logback.xml", "../dist/src/main/dist/config/logback.xml"})
  void shouldWriteTheAuditTrailToItsOwnFileOnlyOnceThereIsALine(String configuration)
      throws Exception {
    Path dir = Files.createTempDirectory("cairn-audit-log");
    LoggerContext context = configured(Path.of(configuration), dir);
    try {
      Logger other = context.getLogger("io.cairn.gateway.Gateway");
      other.warn("a warning of the gateway");
      assertThat(Files.exists(dir.resolve("audit.jsonl"))).as("created before a line").isFalse();

      Logger audit = context.getLogger("cairn.audit");
      assertThat(audit.isAdditive()).as("also on stderr").isFalse();
      audit.info("{\"operation\":\"TakeBackup\",\"outcome\":\"ok\"}");
      audit.info("{\"operation\":\"ListBackups\",\"outcome\":\"ok\"}");
      context.stop(); // flushes and closes the file
      assertThat(context.getStatusManager().getCopyOfStatusList())
          .noneMatch(status -> status.getLevel() >= ch.qos.logback.core.status.Status.WARN);

      assertThat(Files.readAllLines(dir.resolve("audit.jsonl")))
          .isEqualTo(
              List.of(
                  "{\"operation\":\"TakeBackup\",\"outcome\":\"ok\"}",
                  "{\"operation\":\"ListBackups\",\"outcome\":\"ok\"}"));
    } finally {
      context.stop();
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** A logging context of its own, configured from {@code file}, logs under {@code logDir}. */
  private static LoggerContext configured(Path file, Path logDir) throws JoranException {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter()); // as the context SLF4J sets up has
    context.putProperty("cairn.log.dir", logDir.toString());
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    configurator.doConfigure(file.toFile());
    assertThat(context.getStatusManager().getCopyOfStatusList())
        .noneMatch(status -> status.getLevel() >= ch.qos.logback.core.status.Status.WARN);
    return context;
  }
}
