package io.cairn.cli.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cairn.cli.CliRunner;
import io.cairn.cli.CliRunner.Run;
import io.cairn.cli.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A broker whose backup store cannot be opened says so in one line that names the setting, with no
 * stack trace for the operator to wade through (it is logged at DEBUG).
 */
class BrokerStartFailureTest {

  @Test
  void shouldSayInOneLineWhyTheBackupStoreDidNotOpen(@TempDir Path dir) throws Exception {
    Path notADirectory = Files.writeString(dir.resolve("backups"), "a file, not a directory");
    Path config =
        Files.writeString(
            dir.resolve("broker.yaml"),
            "network:\n  port: 0\nmanagement:\n  port: 0\ndata:\n  directory: "
                + dir.resolve("data")
                + "\nbackup:\n  store: fs\n  fs:\n    basePath: "
                + notADirectory
                + "\n");

    Logger logger = (Logger) LoggerFactory.getLogger(BrokerCommand.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    Level level = logger.getLevel();
    logger.setLevel(Level.DEBUG);
    logger.addAppender(appender);
    Run run;
    try {
      run = CliRunner.run("broker", "--config", config.toString());
    } finally {
      logger.detachAppender(appender);
      logger.setLevel(level);
    }

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.FAILED);
    assertThat(run.err())
        .contains("Error: The broker failed to start: ")
        .contains("backup.fs")
        .doesNotContain("Exception:");
    assertThat(appender.list)
        .filteredOn(event -> event.getLevel() == Level.ERROR)
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.getFormattedMessage()).contains("failed to start: ", "backup.fs");
              assertThat(event.getThrowableProxy()).as("a stack trace at ERROR").isNull();
            });
    assertThat(appender.list)
        .filteredOn(event -> event.getLevel() == Level.DEBUG)
        .anySatisfy(event -> assertThat(event.getThrowableProxy()).isNotNull());
  }
}
