package io.cairn.exporter.jsonl;

import io.cairn.config.ConfigValueException;
import io.cairn.config.KeySuggestions;
import io.cairn.config.ValueParser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The settings of a {@link JsonLinesExporter}, from its {@code args}:
 *
 * <table>
 *   <caption>arguments</caption>
 *   <tr><th>name</th><th>default</th><th>allowed</th></tr>
 *   <tr><td>{@code directory}</td><td>(required)</td><td>a directory; created if missing</td></tr>
 *   <tr><td>{@code maxFileSize}</td><td>{@code 64MB}</td><td>[4KB, 1TB]: a file rolls over
 *       before it would grow past this</td></tr>
 *   <tr><td>{@code flushInterval}</td><td>{@code 1s}</td><td>[1ms, 1h]: how often written
 *       records are flushed, fsynced and acknowledged</td></tr>
 * </table>
 *
 * @param directory where the files go
 * @param maxFileSizeBytes the largest file, unless one record alone is larger
 * @param flushInterval between flushes (each fsyncs and acknowledges)
 */
public record JsonLinesExporterConfig(
    Path directory, long maxFileSizeBytes, Duration flushInterval) {

  /** The argument naming the directory. */
  public static final String DIRECTORY = "directory";

  /** The argument of the roll-over size. */
  public static final String MAX_FILE_SIZE = "maxFileSize";

  /** The argument of the flush interval. */
  public static final String FLUSH_INTERVAL = "flushInterval";

  static final long MAX_FILE_SIZE_MIN = 4L * 1024;
  static final long MAX_FILE_SIZE_MAX = 1L << 40;
  static final Duration FLUSH_INTERVAL_MIN = Duration.ofMillis(1);
  static final Duration FLUSH_INTERVAL_MAX = Duration.ofHours(1);

  private static final List<String> NAMES = List.of(DIRECTORY, MAX_FILE_SIZE, FLUSH_INTERVAL);
  private static final ValueParser<String> DIRECTORY_PARSER =
      ValueParser.text(Pattern.compile("(?s).*\\S.*"), "a directory path");
  private static final ValueParser<Long> SIZE_PARSER =
      ValueParser.size(MAX_FILE_SIZE_MIN, MAX_FILE_SIZE_MAX, false);
  private static final ValueParser<Duration> INTERVAL_PARSER =
      ValueParser.duration(FLUSH_INTERVAL_MIN, FLUSH_INTERVAL_MAX);

  public JsonLinesExporterConfig {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(flushInterval, "flushInterval");
    if (maxFileSizeBytes < MAX_FILE_SIZE_MIN || maxFileSizeBytes > MAX_FILE_SIZE_MAX) {
      throw new IllegalArgumentException(
          "Expected maxFileSizeBytes in [4KB, 1TB], but was " + maxFileSizeBytes);
    }
    if (flushInterval.compareTo(FLUSH_INTERVAL_MIN) < 0
        || flushInterval.compareTo(FLUSH_INTERVAL_MAX) > 0) {
      throw new IllegalArgumentException(
          "Expected flushInterval in [1ms, 1h], but was " + flushInterval);
    }
  }

  /**
   * Reads the arguments (names case-insensitive).
   *
   * @throws IllegalArgumentException listing every problem: a missing directory, an unknown
   *     argument (with the closest known name), a value out of range
   */
  public static JsonLinesExporterConfig fromArguments(Map<String, String> args) {
    List<String> violations = new ArrayList<>();
    String directory = null;
    long maxFileSize = 64L << 20;
    Duration flushInterval = Duration.ofSeconds(1);
    for (Map.Entry<String, String> arg : args.entrySet()) {
      String name = arg.getKey().toLowerCase(Locale.ROOT);
      try {
        if (name.equals(DIRECTORY.toLowerCase(Locale.ROOT))) {
          directory = DIRECTORY_PARSER.parse(arg.getValue());
        } else if (name.equals(MAX_FILE_SIZE.toLowerCase(Locale.ROOT))) {
          maxFileSize = SIZE_PARSER.parse(arg.getValue());
        } else if (name.equals(FLUSH_INTERVAL.toLowerCase(Locale.ROOT))) {
          flushInterval = INTERVAL_PARSER.parse(arg.getValue());
        } else {
          violations.add(
              "Expected only the arguments "
                  + NAMES
                  + ", but "
                  + arg.getKey()
                  + " is not one; did you mean "
                  + KeySuggestions.closest(arg.getKey(), NAMES)
                  + "?");
        }
      } catch (ConfigValueException e) {
        violations.add(
            "Expected argument " + arg.getKey() + " to be " + e.rule() + ", but was " + e.actual());
      }
    }
    if (directory == null) {
      violations.add(
          "Expected argument " + DIRECTORY + " to name where the files go, but it is not set");
    }
    if (!violations.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", violations) + " (JSON-lines exporter)");
    }
    return new JsonLinesExporterConfig(Path.of(directory), maxFileSize, flushInterval);
  }
}
