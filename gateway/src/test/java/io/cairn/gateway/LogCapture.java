package io.cairn.gateway;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Captures every event of the gateway's loggers (DEBUG and up) without printing them. */
final class LogCapture implements AutoCloseable {
  private final Logger logger = (Logger) LoggerFactory.getLogger("io.cairn.gateway");
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Level level = logger.getLevel();
  private final boolean additive = logger.isAdditive();

  LogCapture() {
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.DEBUG);
    logger.setAdditive(false);
  }

  List<ILoggingEvent> events() {
    synchronized (appender) {
      return List.copyOf(appender.list);
    }
  }

  List<ILoggingEvent> atOrAbove(Level threshold) {
    return events().stream().filter(e -> e.getLevel().isGreaterOrEqual(threshold)).toList();
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    logger.setLevel(level);
    logger.setAdditive(additive);
  }
}
