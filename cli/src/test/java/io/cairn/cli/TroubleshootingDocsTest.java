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
    Map<String, String> sections = sections("Restore and verify");

    assertThat(sections.keySet())
        .as("sections of 'Restore and verify' in %s against RestoreProblem", PAGE)
        .containsExactlyInAnyOrderElementsOf(names(RestoreProblem.values()));
    for (RestoreProblem problem : RestoreProblem.values()) {
      assertThat(sections.get(problem.name()))
          .as("the section of %s (a %s problem)", problem, problem.kind())
          .startsWith("Exit code " + RestoreFailures.exitCode(problem.kind()) + ".");
    }
  }

  @Test
  void everyBackupFailureHasASection() throws IOException {
    assertThat(sections("Backups that FAILED").keySet())
        .as("sections of 'Backups that FAILED' in %s against BackupFailure", PAGE)
        .containsExactlyInAnyOrderElementsOf(names(BackupFailure.values()));
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
    Map<String, String> sections = sections("The gateway's answers");

    assertThat(sections.keySet())
        .as("sections of 'The gateway's answers' in %s against GatewayErrorCode", PAGE)
        .containsExactlyInAnyOrderElementsOf(names(GatewayErrorCode.values()));
    for (GatewayErrorCode code : GatewayErrorCode.values()) {
      assertThat(sections.get(code.name()))
          .as("the section of %s", code)
          .startsWith("HTTP " + code.httpStatus() + ".");
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
