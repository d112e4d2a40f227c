package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboards ({@code docs/grafana/*.json}) and the Prometheus alert rules ({@code
 * docs/prometheus/alerts.yml}) query only series Cairn's processes export: every {@code cairn_*}
 * name in them is a series of the meter catalogue, whose names {@link MetricsCatalogTest} checks
 * against the code and against a scrape. Every alert rule has a promtool unit test that fires it,
 * and, where promtool is installed (Debian's {@code prometheus} package; {@code .ci/run} installs
 * it), {@code promtool check rules} and {@code promtool test rules} pass, and promtool parses every
 * dashboard query.
 */
final class MonitoringAssetsTest {

  private static final Pattern SERIES = Pattern.compile("\\bcairn_[a-z0-9_]+");
  private static final Set<String> DASHBOARDS =
      Set.of("cairn-overview", "cairn-partitions", "cairn-backups");

  /** The alerts operators were promised, by name; the file may hold more. */
  private static final Set<String> ALERTS =
      Set.of(
          "CairnBackupFailed",
          "CairnNewestBackupTooOld",
          "CairnRecoveryPointTooOld",
          "CairnArchiveStalled",
          "CairnArchiveHoldNearLimit",
          "CairnReplicaDigestDivergence",
          "CairnPartitionUnhealthy",
          "CairnSustainedBackpressure");

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static Path docs(String path) {
    return MetricsCatalogue.repositoryRoot().resolve("docs").resolve(path);
  }

  @Test
  void dashboardsQueryOnlySeriesTheCodeExports() throws IOException {
    Set<String> exported = MetricsCatalogue.series();
    List<String> problems = new ArrayList<>();
    Set<String> uids = new TreeSet<>();
    for (Path file : dashboardFiles()) {
      JsonNode dashboard = JSON.readTree(file.toFile());
      String name = file.getFileName().toString();
      String uid = dashboard.path("uid").asText();
      if (uid.isBlank() || !uids.add(uid) || !name.equals(uid + ".json")) {
        problems.add(
            name + ": expected a uid of its own, named as the file, but it is '" + uid + "'");
      }
      if (dashboard.path("title").asText().isBlank()) {
        problems.add(name + ": expected a title");
      }
      List<JsonNode> panels = new ArrayList<>();
      collectPanels(dashboard.path("panels"), panels);
      if (panels.isEmpty()) {
        problems.add(name + ": expected panels");
      }
      for (JsonNode panel : panels) {
        String where = name + ", panel '" + panel.path("title").asText() + "'";
        List<String> expressions = new ArrayList<>();
        panel.path("targets").forEach(target -> expressions.add(target.path("expr").asText()));
        if (expressions.isEmpty() || expressions.stream().anyMatch(String::isBlank)) {
          problems.add(where + ": expected a query in every target, and at least one target");
        }
        expressions.forEach(expr -> unexported(where, expr, exported, problems));
      }
    }
    assertThat(uids).as("dashboards in docs/grafana").containsAll(DASHBOARDS);
    assertThat(problems)
        .withFailMessage(
            "Expected the dashboards to query only series in %s, but:%n  %s",
            MetricsCatalogue.PATH, String.join(System.lineSeparator() + "  ", problems))
        .isEmpty();
  }

  @Test
  void theConsoleReadsOnlySeriesTheCodeExports() throws IOException {
    Path script =
        MetricsCatalogue.repositoryRoot()
            .resolve("gateway/src/main/resources/io/cairn/gateway/console/console.js");
    Set<String> exported = MetricsCatalogue.series();
    Matcher series = SERIES.matcher(Files.readString(script));
    Set<String> read = new TreeSet<>();
    while (series.find()) {
      read.add(series.group());
    }
    assertThat(read).as("the series the console's charts read").isNotEmpty();
    assertThat(read)
        .as("the series the console reads, against %s", MetricsCatalogue.PATH)
        .allSatisfy(name -> assertThat(exported).contains(name));
  }

  /** Every panel that shows data, also those inside collapsed rows. */
  private static void collectPanels(JsonNode panels, List<JsonNode> into) {
    for (JsonNode panel : panels) {
      if (panel.path("type").asText().equals("row")) {
        collectPanels(panel.path("panels"), into);
      } else {
        into.add(panel);
      }
    }
  }

  @Test
  void alertRulesQueryOnlySeriesTheCodeExportsAndEachHasAUnitTestThatFiresIt() throws IOException {
    Set<String> exported = MetricsCatalogue.series();
    JsonNode rules = YAML.readTree(docs("prometheus/alerts.yml").toFile());
    JsonNode tests = YAML.readTree(docs("prometheus/alerts-test.yml").toFile());
    Set<String> fired = new HashSet<>();
    tests
        .path("tests")
        .forEach(
            test ->
                test.path("alert_rule_test")
                    .forEach(
                        check -> {
                          if (!check.path("exp_alerts").isEmpty()) {
                            fired.add(check.path("alertname").asText());
                          }
                        }));

    List<String> problems = new ArrayList<>();
    Set<String> names = new TreeSet<>();
    for (JsonNode group : rules.path("groups")) {
      for (JsonNode rule : group.path("rules")) {
        String alert = rule.path("alert").asText();
        String where = "alert " + alert;
        if (alert.isBlank() || !names.add(alert)) {
          problems.add("expected a name of its own for every rule, but got '" + alert + "'");
        }
        unexported(where, rule.path("expr").asText(), exported, problems);
        String severity = rule.path("labels").path("severity").asText();
        if (!severity.equals("warning") && !severity.equals("critical")) {
          problems.add(
              where + ": expected severity warning or critical, but got '" + severity + "'");
        }
        for (String annotation : List.of("summary", "description")) {
          if (rule.path("annotations").path(annotation).asText().isBlank()) {
            problems.add(where + ": expected the annotation " + annotation);
          }
        }
        if (!fired.contains(alert)) {
          problems.add(where + ": expected a test in alerts-test.yml that fires it");
        }
      }
    }
    assertThat(names).as("alerts in docs/prometheus/alerts.yml").containsAll(ALERTS);
    assertThat(problems)
        .withFailMessage(
            "Expected every alert rule to query only series in %s and to have a test, but:%n  %s",
            MetricsCatalogue.PATH, String.join(System.lineSeparator() + "  ", problems))
        .isEmpty();
  }

  private static void unexported(
      String where, String expression, Set<String> exported, List<String> problems) {
    Matcher series = SERIES.matcher(expression);
    while (series.find()) {
      if (!exported.contains(series.group())) {
        problems.add(where + ": " + series.group() + " is no series a Cairn process exports");
      }
    }
  }

  @Test
  void promtoolPassesTheRulesAndTheirUnitTests() throws Exception {
    Optional<Path> promtool = onPath("promtool");
    Assumptions.assumeTrue(
        promtool.isPresent(),
        "promtool is not installed; install it with: apt-get install prometheus (.ci/run does)");
    Path directory = docs("prometheus");
    assertThat(run(promtool.get(), directory, "check", "rules", "alerts.yml")).contains("SUCCESS");
    assertThat(run(promtool.get(), directory, "test", "rules", "alerts-test.yml"))
        .contains("SUCCESS");

    // the dashboards' queries parse too: promtool checks them as recording rules
    // (each named <dashboard>:panel_<id>_<refId>, so that a failure names the panel)
    List<Map<String, String>> queries = new ArrayList<>();
    for (Path file : dashboardFiles()) {
      JsonNode dashboard = JSON.readTree(file.toFile());
      String uid = dashboard.path("uid").asText().replace('-', '_');
      List<JsonNode> panels = new ArrayList<>();
      collectPanels(dashboard.path("panels"), panels);
      for (JsonNode panel : panels) {
        for (JsonNode target : panel.path("targets")) {
          String record =
              uid + ":panel_" + panel.path("id").asInt() + "_" + target.path("refId").asText();
          queries.add(Map.of("record", record, "expr", target.path("expr").asText()));
        }
      }
    }
    Path rules = Files.createTempFile("cairn-dashboard-queries", ".yml");
    try {
      YAML.writeValue(
          rules.toFile(),
          Map.of("groups", List.of(Map.of("name", "dashboards", "rules", queries))));
      assertThat(run(promtool.get(), directory, "check", "rules", rules.toString()))
          .contains("SUCCESS: " + queries.size() + " rules found");
    } finally {
      Files.delete(rules);
    }
  }

  private static List<Path> dashboardFiles() throws IOException {
    try (Stream<Path> listed = Files.list(docs("grafana"))) {
      return listed.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    }
  }

  private static String run(Path promtool, Path directory, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(promtool.toString());
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
    assertThat(process.exitValue()).as("%s:%n%s", String.join(" ", command), output).isZero();
    return output;
  }

  private static Optional<Path> onPath(String executable) {
    for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(directory, executable);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
