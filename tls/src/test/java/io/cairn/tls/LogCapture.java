package io.cairn.tls;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Captures every event of a logger and the loggers below it (DEBUG and up) without printing them;
 * in this module's test-jar for the tests of the listeners that serve its material.
 */
public final class LogCapture implements AutoCloseable {
  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private final Level level;
  private final boolean additive;

  /** The tls module's loggers. */
  LogCapture() {
    this("io.cairn.tls");
  }

  /** The logger named {@code name} (a class or package name) and those below it. */
  public LogCapture(String name) {
    logger = (Logger) LoggerFactory.getLogger(name);
    level = logger.getLevel();
    additive = logger.isAdditive();
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.DEBUG);
    logger.setAdditive(false);
  }

  public List<ILoggingEvent> events() {
    synchronized (appender) {
      return List.copyOf(appender.list);
    }
  }

  /** The formatted messages at {@code level}. */
  public List<String> messages(Level level) {
    return events().stream()
        .filter(e -> e.getLevel().equals(level))
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  /** Everything the events would print: messages and the messages of attached throwables. */
  public List<String> allText() {
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
