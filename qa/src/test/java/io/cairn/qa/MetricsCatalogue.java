package io.cairn.qa;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rows of {@code docs/metrics.md}, the catalogue of meters, as the tests that check it and the
 * dashboards and alert rules built on it read them.
 */
final class MetricsCatalogue {

  static final String PATH = "docs/metrics.md";

  /** A row: name and Prometheus name in backticks, then type, unit, tags and meaning. */
  private static final Pattern ROW =
      Pattern.compile(
          "^\\|\\s*`(cairn\\.[a-z0-9_.]+)`\\s*\\|\\s*`([a-z0-9_]+)`\\s*\\|\\s*([a-z]+)\\s*\\|\\s*([^|]*?)\\s*\\|");

  private MetricsCatalogue() {}

  /**
   * One meter as catalogued.
   *
   * @param unit the base unit as written ("—" for none)
   * @param line the row's line in the catalogue
   */
  record Row(String name, String prometheusName, String type, String unit, int line) {

    /** The base unit Micrometer is given: "seconds since the epoch" is in seconds. */
    String baseUnit() {
      return unit.equals("—") ? null : unit.split(" ")[0];
    }

    /** The series a scrape holds: a timer's count, sum and max; else the one name. */
    List<String> series() {
      return type.equals("timer")
          ? List.of(prometheusName + "_count", prometheusName + "_sum", prometheusName + "_max")
          : List.of(prometheusName);
    }
  }

  /** Every row, in the catalogue's order. */
  static List<Row> rows() {
    List<String> lines;
    try {
      lines = Files.readAllLines(repositoryRoot().resolve(PATH));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher row = ROW.matcher(lines.get(i));
      if (row.find()) {
        rows.add(new Row(row.group(1), row.group(2), row.group(3), row.group(4), i + 1));
      }
    }
    return rows;
  }

  /** Every series name a scrape of Cairn's processes may hold. */
  static Set<String> series() {
    Set<String> series = new TreeSet<>();
    rows().forEach(row -> series.addAll(row.series()));
    return series;
  }

  /** The directory of the parent pom: the first one up from here whose pom lists modules. */
  static Path repositoryRoot() {
    Path directory = Path.of("").toAbsolutePath();
    while (directory != null) {
      Path pom = directory.resolve("pom.xml");
      try {
        if (Files.isRegularFile(pom) && Files.readString(pom).contains("<modules>")) {
          return directory;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      directory = directory.getParent();
    }
    throw new IllegalStateException(
        "Expected a parent pom.xml with <modules> above " + Path.of("").toAbsolutePath());
  }
}
