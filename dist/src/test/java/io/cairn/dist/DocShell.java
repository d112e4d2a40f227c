package io.cairn.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs what a page of {@code docs/} tells an operator to type: its {@code sh} blocks in one bash
 * ({@code -euo pipefail}, each command echoed), and single commands, in a working directory of the
 * test's, with the distribution's {@code bin/} first on the path, a small JVM for each process and
 * no {@code CAIRN_*} variable of the machine's.
 */
final class DocShell {
  private static final Pattern SH_BLOCK = Pattern.compile("(?s)```sh\n(.*?)```");

  private final Path dist;
  private final Path work;

  /**
   * @param work where every command runs (relative paths of the page resolve here)
   */
  DocShell(Path work) {
    this.dist =
        Path.of(System.getProperty("cairn.dist.directory", "target/cairn")).toAbsolutePath();
    this.work = work;
  }

  /** The {@code sh} blocks of {@code page}, in order. */
  static List<String> blocks(Path page) throws IOException {
    Matcher block = SH_BLOCK.matcher(Files.readString(page, StandardCharsets.UTF_8));
    List<String> blocks = new ArrayList<>();
    while (block.find()) {
      blocks.add(block.group(1));
    }
    return blocks;
  }

  /** Runs {@code script} in {@code bash -euo pipefail}, each command echoed to stderr. */
  Run bash(String script, int timeoutSeconds) throws Exception {
    return run(List.of("bash", "-euo", "pipefail", "-c", "set -x\n" + script), timeoutSeconds);
  }

  /** Runs {@code bin/cairn --gateway gateway args...}; it must exit 0. */
  void cairn(String gateway, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(dist.resolve("bin/cairn").toString()));
    command.addAll(List.of("--gateway", gateway));
    command.addAll(List.of(args));
    Run run = run(command, 180);
    assertThat(run.exitCode()).as(run.toString()).isZero();
  }

  /** Runs {@code bin/cairn args...}, whatever its exit code (for clean-up). */
  Run cairnAnyway(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(dist.resolve("bin/cairn").toString()));
    command.addAll(List.of(args));
    return run(command, 60);
  }

  private Run run(List<String> command, int timeoutSeconds) throws Exception {
    Path out = Files.createTempFile(work, "out", ".txt");
    Path err = Files.createTempFile(work, "err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(work.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    Map<String, String> env = builder.environment();
    env.put("PATH", dist.resolve("bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("JAVA_OPTS", "-Xmx192m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
    env.keySet().removeIf(name -> name.startsWith("CAIRN_"));
    Process process = builder.start();
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new AssertionError(
          "Expected " + command + " to end within " + timeoutSeconds + " s; " + read(out, err));
    }
    return new Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static String read(Path out, Path err) throws IOException {
    return "stdout:\n" + Files.readString(out) + "\nstderr:\n" + Files.readString(err);
  }

  record Run(int exitCode, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
  }
}
