package io.cairn.tls;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Captures every event of the tls module's loggers (DEBUG and up) without printing them. */
final class LogCapture implements AutoCloseable {
  private final Logger logger = (Logger) LoggerFactory.getLogger("io.cairn.tls");
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

  /** The formatted messages at {@code level}. */
  List<String> messages(Level level) {
    return events().stream()
        .filter(e -> e.getLevel().equals(level))
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  /** Everything the events would print: messages and the messages of attached throwables. */
  List<String> allText() {
    List<String> text = new ArrayList<>();
    for (ILoggingEvent event : events()) {
      text.add(event.getFormattedMessage());
      for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
        text.add(t.getClassName() + ": " + t.getMessage());
      }
    }
    return text;
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    logger.setLevel(level);
    logger.setAdditive(additive);
  }
}
