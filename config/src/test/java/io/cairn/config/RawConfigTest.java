package io.cairn.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

final class RawConfigTest {

  private static final String SOURCE = "config file test.yaml";

  private static final ConfigKey<Integer> PORT =
      new ConfigKey<>("server.port", "8080", ValueParser.integer(0, 65_535), false, "port");
  private static final ConfigKey<Duration> TIMEOUT =
      new ConfigKey<>(
          "server.timeout",
          "5s",
          ValueParser.duration(Duration.ofMillis(1), Duration.ofMinutes(1)),
          false,
          "timeout");
  private static final ConfigKey<String> PASSWORD =
      new ConfigKey<>(
          "store.password", null, ValueParser.text(Pattern.compile(".+"), "any text"), true, "pw");
  private static final ConfigKey<String> URL =
      new ConfigKey<>(
          "store.url", null, ValueParser.text(Pattern.compile(".+"), "a URL"), false, "url");
  private static final ConfigGroup PEERS =
      ConfigGroup.values("server.peers", ValueParser.integer(0, 9), "peers");
  private static final ConfigGroup SINKS =
      ConfigGroup.sections(
          "sinks",
          ValueParser.text(Pattern.compile("[a-z0-9-]{1,32}"), "1 to 32 of [a-z0-9-]"),
          List.of("type", "className"),
          "args",
          "sinks");
  private static final ConfigCatalogue CATALOGUE =
      new ConfigCatalogue(
          List.of(PORT, TIMEOUT, PASSWORD, URL), Set.of("server", "store"), List.of(PEERS, SINKS));

  private final List<String> violations = new ArrayList<>();
  private final RawConfig raw = new RawConfig(CATALOGUE, SOURCE, violations);
  private final ConfigValues values = new ConfigValues(raw, violations);

  @Test
  void shouldReadKeysFromYamlAndLetTheEnvironmentWin() {
    // given
    raw.readYaml("server:\n  port: 9000\n  timeout: 2s\n");

    // when
    raw.readEnv(Map.of("CAIRN_SERVER_TIMEOUT", "750ms", "PATH", "/bin"));

    // then
    assertThat(violations).isEmpty();
    assertThat(values.get(PORT)).isEqualTo(9000);
    assertThat(values.get(TIMEOUT)).isEqualTo(Duration.ofMillis(750));
    assertThat(values.get(PASSWORD)).isNull();
    assertThat(values.sourceOf(TIMEOUT))
        .isEqualTo("set by environment variable CAIRN_SERVER_TIMEOUT");
  }

  @Test
  void shouldReportEveryBadValueWithKeyRuleSourceAndVariableAndFallBackToTheDefault() {
    // given
    raw.readYaml("server:\n  port: 70000\n  timeout: soon\n");

    // when
    Integer port = values.get(PORT);
    values.get(TIMEOUT);

    // then
    assertThat(port).isEqualTo(8080);
    assertThat(values.allValid(PORT)).isFalse();
    assertThat(violations)
        .containsExactly(
            "Expected server.port to be an integer in [0, 65535], but was 70000 (set in "
                + SOURCE
                + "; environment variable CAIRN_SERVER_PORT)",
            "Expected server.timeout to be a duration in [1ms, 1m], with a unit (ms, s, m, h, d),"
                + " but was 'soon' (set in "
                + SOURCE
                + "; environment variable CAIRN_SERVER_TIMEOUT)");
  }

  @Test
  void shouldRejectUnknownKeysAndVariablesOfKnownSectionsWithASuggestion() {
    // when
    raw.readYaml("server:\n  prot: 1\nstore:\n  url: [a, b]\n");
    raw.readEnv(Map.of("CAIRN_SERVER_TIMEOUTS", "1s", "CAIRN_HOME", "/opt/cairn"));

    // then
    assertThat(violations)
        .containsExactly(
            "Expected only known keys, but server.prot is not one ("
                + SOURCE
                + "); did you mean server.port?",
            "Expected one value for store.url, but it is a list (" + SOURCE + ")",
            "Expected environment variable CAIRN_SERVER_TIMEOUTS to name a configuration key,"
                + " but there is no such key; did you mean CAIRN_SERVER_TIMEOUT"
                + " (server.timeout)?");
  }

  @Test
  void shouldReportBrokenYamlWithItsLocation() {
    raw.readYaml("server:\n  port: 1\n  port: 2\n");

    assertThat(violations)
        .singleElement()
        .asString()
        .startsWith("Expected valid YAML, but")
        .contains("line 3");
  }

  @Test
  void shouldReadAGroupOfValuesAsMapListOrVariables() {
    // when
    raw.readYaml("server:\n  peers: ['a:1', 'b:2']\n");
    raw.readEnv(Map.of("CAIRN_SERVER_PEERS_3", "c:3", "CAIRN_SERVER_PEERS_10", "d:4"));

    // then
    assertThat(raw.groupValues("server.peers"))
        .containsOnlyKeys("0", "1", "3")
        .containsEntry(
            "3", new RawConfig.Raw("c:3", "set by environment variable CAIRN_SERVER_PEERS_3"));
    assertThat(violations)
        .containsExactly(
            "Expected the ids of server.peers to be an integer in [0, 9], but one is 10 (set by"
                + " environment variable CAIRN_SERVER_PEERS_10)");
  }

  @Test
  void shouldReadAGroupOfSectionsFromAListWithIdsAndVariablesOverFieldsAndArguments() {
    // given
    raw.readYaml(
        """
        sinks:
          - id: files
            type: jsonl
            args:
              directory: /var/out
              maxFileSize: 64MB
              nested:
                level: 2
        """);

    // when
    raw.readEnv(
        Map.of(
            "CAIRN_SINKS_FILES_ARGS_MAXFILESIZE", "1MB",
            "CAIRN_SINKS_OTHER_CLASSNAME", "com.example.Sink",
            "CAIRN_SINKS_OTHER_ARGS_TOKEN", "abc"));

    // then
    assertThat(violations).isEmpty();
    assertThat(raw.groupSections("sinks")).containsOnlyKeys("files", "other");
    assertThat(raw.groupSections("sinks").get("files"))
        .containsOnlyKeys("type", "args.directory", "args.maxFileSize", "args.nested.level")
        .containsEntry(
            "args.maxFileSize",
            new RawConfig.Raw(
                "1MB", "set by environment variable CAIRN_SINKS_FILES_ARGS_MAXFILESIZE"));
    assertThat(raw.groupSections("sinks").get("other")).containsOnlyKeys("className", "args.token");
  }

  @Test
  void shouldReadAGroupOfSectionsFromAMapAndRejectUnknownFieldsBadIdsAndDuplicates() {
    // when
    raw.readYaml(
        """
        sinks:
          files:
            typ: jsonl
          Bad_Id:
            type: x
        """);
    raw.readEnv(Map.of("CAIRN_SINKS_FILES", "x", "CAIRN_SINKS_FILES_CLASNAME", "y"));

    // then
    assertThat(violations)
        .containsExactly(
            "Expected only known fields in sinks.files, but typ is not one (set in "
                + SOURCE
                + "); did you mean type?",
            "Expected the ids of sinks to be 1 to 32 of [a-z0-9-], but one is 'Bad_Id' (set in "
                + SOURCE
                + ")",
            "Expected environment variable CAIRN_SINKS_FILES to name a field of an entry of"
                + " sinks (CAIRN_SINKS_<ID>_<FIELD>), but it names none",
            "Expected environment variable CAIRN_SINKS_FILES_CLASNAME to name a field of"
                + " sinks.files, but there is no such field; did you mean"
                + " CAIRN_SINKS_FILES_CLASSNAME?");
  }

  @Test
  void shouldRejectADuplicateSectionIdInAList() {
    raw.readYaml("sinks:\n  - id: a\n    type: x\n  - id: a\n    type: y\n  - type: z\n");

    assertThat(violations)
        .containsExactly(
            "Expected the ids of sinks to be unique, but 'a' appears twice (set in " + SOURCE + ")",
            "Expected item 2 of sinks to have an id, but it has none (set in " + SOURCE + ")");
  }

  @Test
  void shouldListSettingsInCatalogueOrderWithGroupsAfterTheirSectionAndSecretsRedacted() {
    // given
    raw.readYaml(
        """
        store:
          password: hunter2
          url: https://user:pw@example.com/bucket
        server:
          peers: {1: 'a:1'}
        """);

    // when
    values.get(PORT);
    values.get(TIMEOUT);
    raw.groupValues("server.peers")
        .forEach(
            (id, value) ->
                values.parse("server.peers." + id, ValueParser.hostAndPort(), value, false));
    values.get(PASSWORD);
    values.get(URL);

    // then
    assertThat(values.settings())
        .extracting(ConfigSetting::toString)
        .containsExactly(
            "server.port = 8080 (default)",
            "server.timeout = 5s (default)",
            "server.peers.1 = a:1 (set in " + SOURCE + ")",
            "store.password = <redacted> (set in " + SOURCE + ")",
            "store.url = https://<redacted>@example.com/bucket (set in " + SOURCE + ")");
  }

  @Test
  void shouldNameTheProcessAndListEveryProblemInTheException() {
    ConfigException exception = new ConfigException("gateway", SOURCE, List.of("first", "second"));

    assertThat(exception.violations()).containsExactly("first", "second");
    assertThat(exception)
        .hasMessage(
            "Expected a valid gateway configuration, but "
                + SOURCE
                + " has 2 problems. Fix the keys below (in the file or their CAIRN_* environment"
                + " variables):\n  - first\n  - second");
  }
}
