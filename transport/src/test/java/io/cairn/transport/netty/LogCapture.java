package io.cairn.transport.netty;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Captures every event of one logger (DEBUG and up) without printing it. */
final class LogCapture implements AutoCloseable {
  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Level level;
  private final boolean additive;

  LogCapture(Class<?> type) {
    logger = (Logger) LoggerFactory.getLogger(type);
    level = logger.getLevel();
    additive = logger.isAdditive();
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.DEBUG);
    logger.setAdditive(false);
  }

  /** The formatted messages at {@code level}. */
  List<String> messages(Level level) {
    synchronized (appender) {
      return appender.list.stream()
          .filter(event -> event.getLevel().equals(level))
          .map(ILoggingEvent::getFormattedMessage)
          .toList();
    }
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    logger.setLevel(level);
    logger.setAdditive(additive);
  }
}
