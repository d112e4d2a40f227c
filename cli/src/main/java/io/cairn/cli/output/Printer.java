package io.cairn.cli.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where a command's output goes. The result goes to stdout, once per command: as tables (or lines)
 * drawn by the command, or as one JSON document (with {@code --output json}). Progress and
 * diagnostics go to stderr in both formats, so stdout stays parseable.
 */
public final class Printer {
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .registerModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
          .enable(SerializationFeature.INDENT_OUTPUT);

  private final OutputFormat format;
  private final PrintStream out;
  private final PrintStream err;
  private boolean resultPrinted;

  public Printer(OutputFormat format, PrintStream out, PrintStream err) {
    this.format = Objects.requireNonNull(format, "format");
    this.out = Objects.requireNonNull(out, "out");
    this.err = Objects.requireNonNull(err, "err");
  }

  public OutputFormat format() {
    return format;
  }

  public boolean isJson() {
    return format == OutputFormat.JSON;
  }

  /**
   * Prints the command's result: {@code document} as JSON, or what {@code table} draws.
   *
   * @param document serialized with Jackson (records, maps, lists; instants as ISO-8601)
   * @throws IllegalStateException if a result was printed already (one document per command)
   */
  public synchronized void result(Object document, Consumer<PrintStream> table) {
    if (resultPrinted) {
      throw new IllegalStateException("Expected one result per command, but got a second one");
    }
    resultPrinted = true;
    if (isJson()) {
      out.println(toJson(document));
    } else {
      table.accept(out);
    }
    out.flush();
  }

  /** Whether {@link #result} was called. */
  public synchronized boolean hasResult() {
    return resultPrinted;
  }

  /** A progress or diagnostic line on stderr. */
  public void progress(String line) {
    err.println(line);
    err.flush();
  }

  /**
   * An event for scripts on stderr: {@code document} as one line of compact JSON (with {@code
   * --output json}; stdout still carries exactly one document, the result).
   */
  public void event(Object document) {
    String line;
    try {
      line = JSON.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(document);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
    err.println(line);
    err.flush();
  }

  public PrintStream err() {
    return err;
  }

  /** {@code value} as indented JSON. */
  public static String toJson(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The mapper used for JSON output (tests parse with it). */
  public static ObjectMapper mapper() {
    return JSON;
  }
}
