package io.cairn.gateway;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Captures every event of a logger (DEBUG and up) without printing them. */
final class LogCapture implements AutoCloseable {
  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Level level;
  private final boolean additive;

  /** The gateway's loggers. */
  LogCapture() {
    this("io.cairn.gateway");
  }

  LogCapture(String name) {
    logger = (Logger) LoggerFactory.getLogger(name);
    level = logger.getLevel();
    additive = logger.isAdditive();
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

  /** The formatted messages, in order. */
  List<String> messages() {
    return events().stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  void clear() {
    synchronized (appender) {
      appender.list.clear();
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
