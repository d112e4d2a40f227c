package io.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backup.BackupMetrics.RestoreCheckResult;
import io.cairn.backupapi.BackupFailure;
import io.cairn.cli.restore.RestoreFailures;
import io.cairn.gateway.GatewayErrorCode;
import io.cairn.restore.RestoreProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/troubleshooting.md} against the catalogues of the code: under each of its four
 * chapters, one {@code ###} section per name of the chapter's catalogue — no more, no fewer — each
 * saying what the command line or the HTTP endpoints answer with it. A problem, failure or code
 * added, renamed or removed without its section fails here, naming it.
 */
final class TroubleshootingDocsTest {

  private static final Path PAGE = Path.of("..", "docs", "troubleshooting.md");

  @Test
  void everyRestoreProblemHasASectionWithItsExitCode() throws IOException {
    assertSections(
        "Restore and verify",
        RestoreProblem.values(),
        problem -> "Exit code " + RestoreFailures.exitCode(problem.kind()) + ".");
  }

  @Test
  void everyBackupFailureHasASection() throws IOException {
    assertSections("Backups that FAILED", BackupFailure.values(), failure -> "");
  }

  @Test
  void everyFailedDigestCheckHasASection() throws IOException {
    List<String> failed =
        Arrays.stream(RestoreCheckResult.values())
            .filter(result -> result != RestoreCheckResult.MATCH)
            .map(Enum::name)
            .toList();

    assertThat(sections("The digest check after a restore").keySet())
        .as("sections of 'The digest check after a restore' in %s against RestoreCheckResult", PAGE)
        .containsExactlyInAnyOrderElementsOf(failed);
  }

  @Test
  void everyGatewayErrorCodeHasASectionWithItsHttpStatus() throws IOException {
    assertSections(
        "The gateway's answers",
        GatewayErrorCode.values(),
        code -> "HTTP " + code.httpStatus() + ".");
  }

  /**
   * The chapter's sections are exactly {@code names}' names, and each starts with what {@code
   * start} says of its name.
   */
  private static <E extends Enum<E>> void assertSections(
      String chapter, E[] names, Function<E, String> start) throws IOException {
    Map<String, String> sections = sections(chapter);

    assertThat(sections.keySet())
        .as("sections of '%s' in %s", chapter, PAGE)
        .containsExactlyInAnyOrderElementsOf(names(names));
    for (E name : names) {
      assertThat(sections.get(name.name()))
          .as("the section of %s", name)
          .startsWith(start.apply(name));
    }
  }

  @Test
  void theReadmeAndTheDesignLinkThePage() throws IOException {
    assertThat(Files.readString(Path.of("..", "README.md"))).contains("docs/troubleshooting.md");
    assertThat(Files.readString(Path.of("..", "docs", "disaster-recovery.md")))
        .contains("troubleshooting.md");
  }

  private static List<String> names(Enum<?>[] values) {
    return Arrays.stream(values).map(Enum::name).collect(Collectors.toList());
  }

  /** The {@code ###} sections under the {@code ##} chapter named {@code chapter}: name → text. */
  private static Map<String, String> sections(String chapter) throws IOException {
    List<String> lines = Files.readAllLines(PAGE);
    int start = lines.indexOf("## " + chapter);
    assertThat(start).as("chapter '## %s' in %s", chapter, PAGE).isNotNegative();
    Map<String, String> sections = new LinkedHashMap<>();
    String name = null;
    StringBuilder text = new StringBuilder();
    for (String line : lines.subList(start + 1, lines.size())) {
      if (line.startsWith("## ")) {
        break;
      }
      if (line.startsWith("### ")) {
        if (name != null) {
          sections.put(name, text.toString().strip());
        }
        name = line.substring(4).strip();
        assertThat(sections).as("sections of '%s' named twice", chapter).doesNotContainKey(name);
        text.setLength(0);
      } else if (name != null) {
        text.append(line).append(' ');
      }
    }
    if (name != null) {
      sections.put(name, text.toString().strip());
    }
    return sections;
  }
}
