package io.cairn.broker;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The version of this broker build, recorded in snapshots, backups and its topology. */
public final class BrokerVersion {

  private static final String RESOURCE = "/io/cairn/broker/version.properties";
  private static final String CURRENT = load();

  private BrokerVersion() {}

  /** The Maven project version this broker was built as, e.g. {@code 0.1.0-SNAPSHOT}. */
  public static String current() {
    return CURRENT;
  }

  private static String load() {
    try (InputStream in = BrokerVersion.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "Expected the resource " + RESOURCE + " in the broker jar, but it is missing");
      }
      Properties properties = new Properties();
      properties.load(in);
      String version = properties.getProperty("version", "").trim();
      if (version.isEmpty() || version.startsWith("${")) {
        throw new IllegalStateException(
            "Expected a version in " + RESOURCE + ", but was '" + version + "'");
      }
      return version;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
