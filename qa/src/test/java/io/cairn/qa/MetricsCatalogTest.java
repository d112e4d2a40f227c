package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The catalogue of meters, {@code docs/metrics.md}, lists exactly the meter names the code
 * declares: the {@code public static final String} fields valued {@code cairn.*} of every {@code
 * *Metrics} class under {@code io.cairn} on this module's class path (which holds every module that
 * declares meters). And main code builds meters from those constants only, so a new meter cannot
 * slip past the catalogue by being spelled inline.
 */
final class MetricsCatalogTest {

  private static final String PACKAGE_DIRECTORY = "io/cairn/";
  private static final String CATALOGUE = MetricsCatalogue.PATH;

  private static final Pattern CAIRN_LITERAL = Pattern.compile("\"(cairn\\.[^\"]*)\"");

  /** A literal as the first argument of a Micrometer builder or registry shortcut. */
  private static final Pattern BUILDER_LITERAL =
      Pattern.compile(
          "\\b(?:builder|counter|timer|gauge|summary|more\\(\\)\\.\\w+)\\(\\s*\"(cairn\\.[^\"]*)\"");

  private static final Pattern PUBLIC_CONSTANT =
      Pattern.compile("public\\s+static\\s+final\\s+String\\s+\\w+\\s*=\\s*\"(cairn\\.[^\"]*)\"");

  @Test
  void shouldCatalogueExactlyTheDeclaredMeters() {
    Map<String, List<String>> declared = declaredMeters();
    Map<String, Integer> catalogued = cataloguedMeters();

    List<String> problems = new ArrayList<>();
    declared.forEach(
        (name, fields) -> {
          if (!catalogued.containsKey(name)) {
            problems.add(
                "missing from " + CATALOGUE + ": " + name + " (declared by " + fields + ")");
          }
        });
    catalogued.forEach(
        (name, line) -> {
          if (!declared.containsKey(name)) {
            problems.add(
                "catalogued but declared by no *Metrics class: "
                    + name
                    + " ("
                    + CATALOGUE
                    + ":"
                    + line
                    + ")");
          }
        });

    assertThat(problems)
        .withFailMessage(
            "Expected %s to list exactly the %d meters the *Metrics classes declare, but:%n  %s%n"
                + "Add a row (name, Prometheus name, type, unit, tags, meaning) to %s, or declare"
                + " the name as a public static final String of its module's *Metrics class.",
            CATALOGUE,
            declared.size(),
            String.join(System.lineSeparator() + "  ", problems),
            CATALOGUE)
        .isEmpty();
  }

  @Test
  void shouldDeclareEveryMeterNameOnce() {
    Map<String, List<String>> twice = new TreeMap<>(declaredMeters());
    twice.values().removeIf(fields -> fields.size() == 1);

    assertThat(twice)
        .withFailMessage(
            "Expected every meter name declared by one constant, but these have several: %s", twice)
        .isEmpty();
  }

  /**
   * The catalogue's Prometheus column is what a scrape shows: each row's meter is registered in a
   * Prometheus registry with the row's type and unit, and the scrape must name it so (dashboards
   * and alert rules are checked against that column).
   */
  @Test
  void shouldGiveEachMeterTheNameAScrapeShows() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    List<String> problems = new ArrayList<>();
    for (MetricsCatalogue.Row row : MetricsCatalogue.rows()) {
      switch (row.type()) {
        case "counter" ->
            Counter.builder(row.name()).baseUnit(row.baseUnit()).register(registry).increment();
        case "gauge" ->
            Gauge.builder(row.name(), () -> 1).baseUnit(row.baseUnit()).register(registry);
        case "timer" -> Timer.builder(row.name()).register(registry).record(Duration.ofMillis(1));
        default ->
            problems.add(row.name() + ": type " + row.type() + " is none of counter, gauge, timer");
      }
    }
    Set<String> scraped = new TreeSet<>();
    for (String line : registry.scrape().split("\n")) {
      if (!line.startsWith("#") && !line.isBlank()) {
        scraped.add(line.split("[{ ]", 2)[0]);
      }
    }
    for (MetricsCatalogue.Row row : MetricsCatalogue.rows()) {
      for (String series : row.series()) {
        if (!scraped.contains(series)) {
          problems.add(
              CATALOGUE
                  + ":"
                  + row.line()
                  + " "
                  + row.name()
                  + ": expected the series "
                  + series
                  + " in a scrape, but it is not there");
        }
      }
    }
    assertThat(problems)
        .withFailMessage(
            "Expected the Prometheus column of %s to name what a scrape shows, but:%n  %s",
            CATALOGUE, String.join(System.lineSeparator() + "  ", problems))
        .isEmpty();
  }

  @Test
  void shouldBuildMetersOnlyFromDeclaredConstants() throws IOException {
    Map<String, List<String>> declared = declaredMeters();
    List<Path> sources = mainSources(repositoryRoot());
    assertThat(sources).as("main sources under " + repositoryRoot()).hasSizeGreaterThan(100);

    List<String> problems = new ArrayList<>();
    for (Path source : sources) {
      String text = Files.readString(source);
      String file = repositoryRoot().relativize(source).toString();
      boolean metricsClass = source.getFileName().toString().endsWith("Metrics.java");
      TreeSet<Integer> built = starts(BUILDER_LITERAL.matcher(text));
      TreeSet<Integer> constants = starts(PUBLIC_CONSTANT.matcher(text));
      Matcher literal = CAIRN_LITERAL.matcher(text);
      while (literal.find()) {
        String value = literal.group(1);
        String at = file + ":" + line(text, literal.start(1)) + " ";
        if (built.contains(literal.start(1))) {
          problems.add(at + "builds a meter named by the literal " + value);
        } else if (metricsClass && !constants.contains(literal.start(1))) {
          problems.add(at + "spells " + value + " outside a public static final String");
        } else if (!metricsClass && declared.containsKey(value)) {
          problems.add(at + "spells " + value + ", declared by " + declared.get(value));
        }
      }
    }

    assertThat(problems)
        .withFailMessage(
            "Expected meters built from the constants of the *Metrics classes only, but:%n  %s%n"
                + "Declare the name once as a public static final String of the module's *Metrics"
                + " class and use that constant.",
            String.join(System.lineSeparator() + "  ", problems))
        .isEmpty();
  }

  /** Meter name → the constants ({@code Class.FIELD}) that declare it. */
  private static Map<String, List<String>> declaredMeters() {
    Map<String, List<String>> declared = new TreeMap<>();
    for (Class<?> type : metricsClasses()) {
      for (Field field : type.getDeclaredFields()) {
        int modifiers = field.getModifiers();
        if (Modifier.isPublic(modifiers)
            && Modifier.isStatic(modifiers)
            && Modifier.isFinal(modifiers)
            && field.getType() == String.class) {
          // package-private *Metrics classes keep their public constants for their own package
          field.setAccessible(true);
          String value;
          try {
            value = (String) field.get(null);
          } catch (IllegalAccessException e) {
            throw new IllegalStateException("Expected to read " + field, e);
          }
          if (value != null && value.startsWith("cairn.")) {
            declared
                .computeIfAbsent(value, name -> new ArrayList<>())
                .add(type.getSimpleName() + "." + field.getName());
          }
        }
      }
    }
    return declared;
  }

  private static List<Class<?>> metricsClasses() {
    ClassLoader loader = MetricsCatalogTest.class.getClassLoader();
    TreeSet<String> names = new TreeSet<>();
    try {
      Enumeration<URL> roots = loader.getResources(PACKAGE_DIRECTORY);
      while (roots.hasMoreElements()) {
        URL root = roots.nextElement();
        if (root.getProtocol().equals("jar")) {
          JarURLConnection connection = (JarURLConnection) root.openConnection();
          // an uncached JarFile of our own, so closing it leaves other readers of the jar alone
          connection.setUseCaches(false);
          try (JarFile jar = connection.getJarFile()) {
            jar.stream().map(JarEntry::getName).forEach(entry -> addMetricsClass(entry, names));
          }
        } else {
          Path directory = Path.of(root.toURI());
          Path classes = directory.getParent().getParent();
          try (Stream<Path> files = Files.walk(directory)) {
            files.forEach(
                file ->
                    addMetricsClass(classes.relativize(file).toString().replace('\\', '/'), names));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    List<Class<?>> classes = new ArrayList<>();
    for (String name : names) {
      try {
        classes.add(Class.forName(name, false, loader));
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("Expected to load " + name + " from the class path", e);
      }
    }
    return classes;
  }

  /** Top-level classes only: a nested {@code Foo$BarMetrics} is part of {@code Foo}. */
  private static void addMetricsClass(String entry, TreeSet<String> names) {
    if (entry.startsWith(PACKAGE_DIRECTORY)
        && entry.endsWith("Metrics.class")
        && !entry.contains("$")) {
      names.add(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
    }
  }

  /** Meter name → line of its row in the catalogue. */
  private static Map<String, Integer> cataloguedMeters() {
    Map<String, Integer> catalogued = new TreeMap<>();
    MetricsCatalogue.rows().forEach(row -> catalogued.putIfAbsent(row.name(), row.line()));
    return catalogued;
  }

  private static Path repositoryRoot() {
    return MetricsCatalogue.repositoryRoot();
  }

  /** Every {@code <module>/src/main/java/**.java} of the repository. */
  private static List<Path> mainSources(Path root) throws IOException {
    List<Path> sources = new ArrayList<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path module : modules.sorted().toList()) {
        Path main = module.resolve("src/main/java");
        if (Files.isDirectory(main)) {
          try (Stream<Path> files = Files.walk(main)) {
            files.filter(file -> file.toString().endsWith(".java")).forEach(sources::add);
          }
        }
      }
    }
    return sources;
  }

  /** Where the first group of every match starts. */
  private static TreeSet<Integer> starts(Matcher matcher) {
    TreeSet<Integer> starts = new TreeSet<>();
    while (matcher.find()) {
      starts.add(matcher.start(1));
    }
    return starts;
  }

  private static int line(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }
}
