package io.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.broker.config.BrokerConfigKeys;
import io.cairn.config.ConfigCatalogue;
import io.cairn.config.ConfigGroup;
import io.cairn.config.ConfigKey;
import io.cairn.gateway.config.GatewayConfigKeys;
import io.cairn.scheduler.Clock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The operator's reference pages are generated from the code and must equal it: {@code
 * docs/reference/configuration.md} from the broker's and the gateway's configuration catalogues
 * (every key with its default, environment variable, allowed values and meaning; every map-valued
 * key), {@code docs/reference/cli.md} from the {@code cairn} command's picocli model (every command
 * with its usage help). A key, option or command changed without its page fails here, naming the
 * first line that differs; {@code -Dcairn.docs.update=true} writes the pages anew.
 */
final class ReferenceDocsTest {

  private static final String UPDATE = "cairn.docs.update";
  private static final String REGENERATE =
      "mvn -B -pl cli test -Dtest=ReferenceDocsTest -D" + UPDATE + "=true";

  @Test
  void theConfigurationReferenceListsEveryKeyAsTheCodeDeclaresIt() throws IOException {
    StringBuilder page = new StringBuilder();
    page.append("# Configuration reference\n\n")
        .append(generatedNote())
        .append(
            "Every key is set in the process's YAML file (dotted paths are nested sections:"
                + " `cluster.nodeId` is `cluster: {nodeId: ...}`) or by its environment variable,"
                + " which wins over the file. Values are checked at start: a bad one stops the"
                + " process naming the key, the value and what is allowed. Keys marked secret are"
                + " redacted where the effective configuration is logged.\n\n");
    catalogue(
        page,
        "Broker",
        "`broker.yaml` (`bin/broker --config`, `cairn broker --config`; the"
            + " [broker README](../../broker/README.md) explains them)",
        BrokerConfigKeys.catalogue());
    catalogue(
        page,
        "Gateway",
        "`gateway.yaml`, every key under `gateway:` (`bin/gateway --config`, `cairn gateway"
            + " --config`; the [gateway README](../../gateway/README.md) explains them)",
        GatewayConfigKeys.catalogue());
    check(Path.of("docs", "reference", "configuration.md"), page.toString());
  }

  @Test
  void theCommandLineReferenceShowsEveryCommandAsTheCodeDeclaresIt() throws IOException {
    CommandLine root = CairnMain.commandLine(context());
    // the same page on every machine, not as wide as the terminal the build runs in
    root.setUsageHelpAutoWidth(false);
    root.setUsageHelpWidth(100);
    StringBuilder page = new StringBuilder();
    page.append("# Command-line reference\n\n")
        .append(generatedNote())
        .append(
            "Every command of `cairn` (`bin/cairn` in the distribution, `./cairn` in the"
                + " source tree) with its usage help, as `cairn <command> --help` prints it. What"
                + " the commands do together, exit codes and output formats: the"
                + " [cli README](../../cli/README.md).\n");
    List<CommandLine> commands = new ArrayList<>();
    collect(root, commands, new IdentityHashMap<>());
    for (CommandLine command : commands) {
      page.append("\n## ")
          .append(command.getCommandSpec().qualifiedName(" "))
          .append("\n\n```text\n")
          .append(command.getUsageMessage(CommandLine.Help.Ansi.OFF).stripTrailing())
          .append("\n```\n");
    }
    check(Path.of("docs", "reference", "cli.md"), page.toString());
  }

  private static String generatedNote() {
    return "Generated from the code by `cli`'s `ReferenceDocsTest`, which fails when this page and"
        + " the code differ; after a change, write it anew with `"
        + REGENERATE
        + "`.\n\n";
  }

  private static void catalogue(
      StringBuilder page, String title, String file, ConfigCatalogue catalogue) {
    page.append("## ").append(title).append("\n\n").append(file).append(".\n\n");
    page.append("| key | default | environment | allowed | meaning |\n|---|---|---|---|---|\n");
    for (ConfigKey<?> key : catalogue.keys()) {
      page.append("| `")
          .append(key.path())
          .append("` | ")
          .append(key.defaultValue() == null ? "—" : "`" + cell(key.defaultValue()) + "`")
          .append(" | `")
          .append(key.envName())
          .append("` | ")
          .append(cell(key.rule()))
          .append(" | ")
          .append(cell(key.description()))
          .append(key.secret() ? " (secret)" : "")
          .append(" |\n");
    }
    if (!catalogue.groups().isEmpty()) {
      page.append("\nMap-valued keys (entries by id; a YAML map or list):\n\n")
          .append("| key | entry | environment | ids | meaning |\n|---|---|---|---|---|\n");
      for (ConfigGroup group : catalogue.groups()) {
        boolean sections = group.shape() == ConfigGroup.Shape.SECTIONS;
        page.append("| `")
            .append(group.path())
            .append(".<id>` | ")
            .append(sections ? "fields " + fields(group) : "one value")
            .append(" | `")
            .append(ConfigKey.envName(group.path()))
            .append(sections ? "_<ID>_<FIELD>`" : "_<ID>`")
            .append(" | ")
            .append(cell(group.idParser().rule()))
            .append(" | ")
            .append(cell(group.description()))
            .append(" |\n");
      }
    }
    page.append('\n');
  }

  private static String fields(ConfigGroup group) {
    List<String> fields = new ArrayList<>();
    group.fields().forEach(field -> fields.add("`" + field + "`"));
    if (group.freeField() != null) {
      fields.add("`" + group.freeField() + ".*`");
    }
    return String.join(", ", fields);
  }

  /** Text for a table cell: pipes escaped, lines joined. */
  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }

  /** Every command below {@code command}, depth first, each once (aliases share one), unhidden. */
  private static void collect(
      CommandLine command, List<CommandLine> into, Map<CommandLine, Boolean> seen) {
    if (seen.put(command, Boolean.TRUE) != null
        || command.getCommandSpec().usageMessage().hidden()) {
      return;
    }
    into.add(command);
    for (CommandLine sub : command.getSubcommands().values()) {
      collect(sub, into, seen);
    }
  }

  /** A context that depends on nothing around the test: no variables, a fixed directory. */
  private static CliContext context() {
    PrintStream discard =
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    return new CliContext(
        Map.of(), discard, discard, Clock.system(), Path.of("/"), CliContext::connectClient);
  }

  /** Compares the page with the file, or writes the file with {@code -Dcairn.docs.update=true}. */
  private static void check(Path relative, String generated) throws IOException {
    Path file = Path.of("..").resolve(relative); // the tests run in cli/
    if (Boolean.getBoolean(UPDATE)) {
      Files.createDirectories(file.getParent());
      Files.writeString(file, generated, StandardCharsets.UTF_8);
      return;
    }
    String committed = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    if (!committed.equals(generated)) {
      String[] expected = generated.split("\n", -1);
      String[] actual = committed.split("\n", -1);
      int line = 0;
      while (line < expected.length
          && line < actual.length
          && expected[line].equals(actual[line])) {
        line++;
      }
      assertThat(committed)
          .withFailMessage(
              "Expected %s to be what the code generates, but line %d differs:%n  in the file: %s%n"
                  + "  from the code: %s%nWrite it anew with: %s",
              relative,
              line + 1,
              line < actual.length ? actual[line] : "(the file ends)",
              line < expected.length ? expected[line] : "(the page ends)",
              REGENERATE)
          .isEqualTo(generated);
    }
  }
}
