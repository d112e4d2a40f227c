package io.cairn.cli.output;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A plain-text table: upper-case headers, columns separated by two spaces, each as wide as its
 * widest cell; numbers are right-aligned. No colours, no box drawing, so output stays
 * grep-friendly.
 *
 * <pre>
 * PARTITION  LEADER  TERM  HEALTH
 *         1       0     2  HEALTHY
 * </pre>
 */
public final class Table {
  private static final String SEPARATOR = "  ";

  private final List<String> headers;
  private final List<List<String>> rows = new ArrayList<>();
  private final boolean[] numeric;

  private Table(List<String> headers) {
    this.headers = headers;
    this.numeric = new boolean[headers.size()];
    Arrays.fill(numeric, true);
  }

  /** A table with these column headers (printed upper-case). */
  public static Table of(String... headers) {
    if (headers.length == 0) {
      throw new IllegalArgumentException("Expected at least one column, but got none");
    }
    return new Table(
        Arrays.stream(headers).map(header -> header.toUpperCase(Locale.ROOT)).toList());
  }

  /**
   * Adds a row; {@code null} prints as "-".
   *
   * @throws IllegalArgumentException if the row does not have one cell per column
   */
  public Table row(Object... cells) {
    if (cells.length != headers.size()) {
      throw new IllegalArgumentException(
          "Expected "
              + headers.size()
              + " cells, but got "
              + cells.length
              + " "
              + Arrays.toString(cells));
    }
    List<String> row = new ArrayList<>(cells.length);
    for (int i = 0; i < cells.length; i++) {
      Object cell = cells[i];
      row.add(cell == null ? "-" : cell.toString());
      if (!(cell instanceof Number)) {
        numeric[i] = false;
      }
    }
    rows.add(row);
    return this;
  }

  public int rowCount() {
    return rows.size();
  }

  /** Prints the header and every row; no trailing spaces. */
  public void print(PrintStream out) {
    Objects.requireNonNull(out, "out");
    int[] widths = new int[headers.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = headers.get(i).length();
      for (List<String> row : rows) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    out.println(line(headers, widths, false));
    for (List<String> row : rows) {
      out.println(line(row, widths, true));
    }
  }

  /** The printed table. */
  @Override
  public String toString() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private String line(List<String> cells, int[] widths, boolean body) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        line.append(SEPARATOR);
      }
      String cell = cells.get(i);
      int pad = widths[i] - cell.length();
      boolean right = body && numeric[i] && !rows.isEmpty();
      if (right) {
        line.append(" ".repeat(pad)).append(cell);
      } else {
        line.append(cell);
        if (i < cells.size() - 1) {
          line.append(" ".repeat(pad));
        }
      }
    }
    return line.toString().stripTrailing();
  }
}
