package io.cairn.broker.partition;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cairn.raft.state.QuorumState;
import io.cairn.streamprocessor.StreamProcessor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** Partition work on shared threads logs with the node and partition ids in the MDC. */
final class PartitionLoggingTest {

  @TempDir Path directory;

  @Test
  void shouldSetBothIdsInsideAScopeAndRestoreWhatWasThereAfterwards() {
    MDC.put(PartitionLogging.NODE_ID, "7");
    try {
      try (PartitionLogging.Scope outer = PartitionLogging.enter(2, 5)) {
        assertThat(MDC.get(PartitionLogging.NODE_ID)).isEqualTo("2");
        assertThat(MDC.get(PartitionLogging.PARTITION_ID)).isEqualTo("5");
        try (PartitionLogging.Scope inner = PartitionLogging.enterPartition(6)) {
          assertThat(MDC.get(PartitionLogging.NODE_ID)).isEqualTo("2");
          assertThat(MDC.get(PartitionLogging.PARTITION_ID)).isEqualTo("6");
        }
        assertThat(MDC.get(PartitionLogging.PARTITION_ID)).isEqualTo("5");
      }
      assertThat(MDC.get(PartitionLogging.NODE_ID)).isEqualTo("7");
      assertThat(MDC.get(PartitionLogging.PARTITION_ID)).isNull();

      AtomicReference<String> seen = new AtomicReference<>();
      PartitionLogging.wrap(3, 4, Runnable::run)
          .execute(() -> seen.set(MDC.get(PartitionLogging.PARTITION_ID)));
      assertThat(seen).hasValue("4");
      assertThat(MDC.get(PartitionLogging.PARTITION_ID)).isNull();
    } finally {
      MDC.clear();
    }
  }

  @Test
  void shouldLogTheRoleTransitionsOfAPartitionWithItsIds() {
    // given a listener on the role logs of the partition, its raft member and stream processor
    List<Logger> loggers =
        List.of(
            (Logger) LoggerFactory.getLogger(PartitionRoleState.class),
            (Logger) LoggerFactory.getLogger(QuorumState.class),
            (Logger) LoggerFactory.getLogger(StreamProcessor.class));
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    List<Level> levels = loggers.stream().map(Logger::getLevel).toList();
    for (Logger logger : loggers) {
      logger.setLevel(Level.INFO);
      logger.addAppender(appender);
    }
    try (PartitionCluster cluster = new PartitionCluster(directory, 101, 1)) {
      // when the member becomes leader (on the scheduler's threads, between other actors' tasks)
      cluster.awaitLeader();
    } finally {
      for (int i = 0; i < loggers.size(); i++) {
        loggers.get(i).detachAppender(appender);
        loggers.get(i).setLevel(levels.get(i));
      }
    }

    // then each line, from each of those actors, names the node and the partition
    List<ILoggingEvent> events = List.copyOf(appender.list);
    assertThat(events)
        .extracting(ILoggingEvent::getLoggerName)
        .contains(
            PartitionRoleState.class.getName(),
            QuorumState.class.getName(),
            StreamProcessor.class.getName());
    for (ILoggingEvent event : events) {
      assertThat(event.getMDCPropertyMap())
          .as(event.getLoggerName() + ": " + event.getFormattedMessage())
          .containsAllEntriesOf(
              Map.of(PartitionLogging.NODE_ID, "0", PartitionLogging.PARTITION_ID, "1"));
    }
  }
}
