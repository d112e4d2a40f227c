package io.cairn.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.cli.cluster.FreePorts;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code docs/getting-started.md}'s "A cluster of your own" and "With TLS and authentication" are
 * run as written, in one bash ({@code -euo pipefail}), with the distribution's {@code bin/cairn}
 * for {@code ./cairn} (the checkout's script that builds it first). Only the ports are this test's:
 * every {@code cluster up} gets free ones ({@code --base-port}, {@code --http-port}, the gateway
 * through {@code CAIRN_GATEWAY}), so that the test never meets a cluster running on the defaults.
 * Not run: the first block ({@code ./cairn demo} and {@code mvn -B verify}: the build runs the one,
 * {@code cli}'s tests the other's parts) and the scripts' block, whose processes run in terminals
 * of their own on the configuration files' fixed ports.
 */
final class GettingStartedIT {
  private static final Path PAGE = Path.of("..", "docs", "getting-started.md");
  private static final Pattern BALANCE = Pattern.compile("(?m)^\\s*bob\\s+30\\b");

  @TempDir Path work;

  @Test
  void shouldRunAClusterOfYourOwnAndASecuredOneAsThePageSays() throws Exception {
    List<String> blocks = DocShell.blocks(PAGE);
    assertThat(blocks).as("the sh blocks of %s", PAGE).hasSize(4);
    assertThat(blocks.get(1)).as("section 2").contains("cluster up", "backup take");
    assertThat(blocks.get(3)).as("section 4").contains("--secure");
    DocShell shell = new DocShell(work);
    int[] ports = FreePorts.forCluster("127.0.0.1", 3, ProcessHandle.current().pid() * 41 + 7);
    String script =
        "export CAIRN_GATEWAY=127.0.0.1:"
            + ports[1]
            + "\n"
            + withPorts(blocks.get(1), ports)
            + withPorts(blocks.get(3), ports);
    try {
      DocShell.Run run = shell.bash(script, 420);
      System.out.println("[GettingStartedIT] " + run);
      assertThat(run.exitCode()).as(run.toString()).isZero();
      assertThat(run.out()).as("bob's balance after the transfer").containsPattern(BALANCE);
      assertThat(run.out()).as("backup 1 in the list").containsPattern("(?m)^\\s*1\\s+COMPLETED");
      Matcher healthy = Pattern.compile("HEALTHY").matcher(run.out());
      assertThat(healthy.results().count())
          .as("every partition HEALTHY in both topologies")
          .isGreaterThanOrEqualTo(6);
    } finally {
      shell.cairnAnyway("cluster", "down", "--dir", "data");
      shell.cairnAnyway("cluster", "down", "--dir", "secure");
    }
  }

  /** {@code ./cairn} as the distribution's {@code cairn}; {@code cluster up} on free ports. */
  private static String withPorts(String block, int[] ports) {
    return block
        .lines()
        .map(line -> line.replaceFirst("^\\./cairn ", "cairn "))
        .map(
            line ->
                line.startsWith("cairn cluster up")
                    ? line.replaceFirst(
                        "^(cairn cluster up[^#]*?)\\s*(#.*)?$",
                        "$1 --base-port " + ports[0] + " --http-port " + ports[2] + " $2")
                    : line)
        .collect(Collectors.joining("\n", "", "\n"));
  }
}
