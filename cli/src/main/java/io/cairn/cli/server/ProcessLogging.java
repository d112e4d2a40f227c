package io.cairn.cli.server;

/**
 * Log levels of the {@code cairn} process. The bundled {@code logback.xml} reads the level from the
 * system property {@value #LEVEL_PROPERTY} (default WARN, so client commands print only their
 * results); a broker or gateway process logs at INFO unless that property is set. Must run before
 * the first logger is created.
 */
public final class ProcessLogging {
  /** The system property the bundled logback configuration takes the root level from. */
  public static final String LEVEL_PROPERTY = "cairn.log.level";

  private ProcessLogging() {}

  /** Sets the root level to INFO unless {@value #LEVEL_PROPERTY} says otherwise. */
  public static void serverDefaults() {
    if (System.getProperty(LEVEL_PROPERTY) == null) {
      System.setProperty(LEVEL_PROPERTY, "INFO");
    }
  }
}
