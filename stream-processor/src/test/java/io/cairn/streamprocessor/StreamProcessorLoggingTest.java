package io.cairn.streamprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.scheduler.LoggingContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** What the stream processor and the code it runs log carries the partition and node ids. */
final class StreamProcessorLoggingTest {

  private static final Logger PROCESSOR_CODE_LOG =
      (Logger) LoggerFactory.getLogger(StreamProcessorLoggingTest.class);

  @TempDir Path directory;

  @Test
  void shouldLogWithThePartitionAndNodeIdsOnTheProcessorThreadOnly() {
    // given listeners on the processor's log and on the log of a processor it runs
    Logger processorLog = (Logger) LoggerFactory.getLogger(StreamProcessor.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    Level processorLevel = processorLog.getLevel();
    Level codeLevel = PROCESSOR_CODE_LOG.getLevel();
    processorLog.setLevel(Level.INFO);
    processorLog.addAppender(appender);
    PROCESSOR_CODE_LOG.setLevel(Level.INFO);
    PROCESSOR_CODE_LOG.addAppender(appender);
    List<String> sideEffects = new ArrayList<>();
    try (StreamProcessorTestKit kit =
        StreamProcessorTestKit.builder()
            .directory(directory)
            .families(TestLedger.FAMILIES)
            .nodeId(4)
            .processors(
                (db, builder) -> {
                  TestLedger.register(db, builder, sideEffects);
                  builder.interceptor(
                      (context, result) -> {
                        PROCESSOR_CODE_LOG.info("Intercepted {}", context.command().position());
                        return CommandInterceptor.Decision.CONTINUE;
                      });
                })
            .build()) {
      // when it starts, processes a command and stops
      kit.startLeader();
      kit.writeCommand(AccountIntent.CREATE, new AccountValue("a", 0));
      kit.runUntilIdle();
      kit.leader().stop();
    } finally {
      processorLog.detachAppender(appender);
      processorLog.setLevel(processorLevel);
      PROCESSOR_CODE_LOG.detachAppender(appender);
      PROCESSOR_CODE_LOG.setLevel(codeLevel);
    }

    // then every line, the processor's phase changes and the interceptor's, names both
    assertThat(appender.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .anyMatch(message -> message.startsWith("Intercepted "))
        .anyMatch(message -> message.contains("-> PROCESSING"))
        .anyMatch(message -> message.contains("-> CLOSED"));
    for (ILoggingEvent event : appender.list) {
      assertThat(event.getMDCPropertyMap())
          .as(event.getFormattedMessage())
          .containsAllEntriesOf(
              Map.of(
                  LoggingContext.PARTITION_ID,
                  Integer.toString(StreamProcessorTestKit.PARTITION_ID),
                  LoggingContext.NODE_ID,
                  "4"));
    }
    // and the test's thread, which ran the scheduler, has none of it left
    assertThat(MDC.get(LoggingContext.PARTITION_ID)).isNull();
    assertThat(MDC.get(LoggingContext.NODE_ID)).isNull();
  }
}
