package io.cairn.cli.cluster;

import io.cairn.cli.CairnMain;
import io.cairn.cli.CliException;
import io.cairn.cli.ExitCode;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Starts {@code cairn} subcommands as detached processes of the same Java installation: {@code
 * [setsid] java <this JVM's options> -cp <this JVM's class path> io.cairn.cli.CairnMain <args>},
 * stdin from /dev/null, stdout and stderr appended to a log file, in a new session (when {@code
 * setsid} exists) so that Ctrl-C in the terminal does not reach them.
 *
 * <p>The children inherit this process's environment without its {@code CAIRN_*} variables (they
 * would override every broker's configuration alike).
 */
public final class ProcessLauncher {
  private static final String EXPORTS = "--add-exports";
  private static final String AGRONA_EXPORT = "java.base/jdk.internal.misc=ALL-UNNAMED";
  private static final List<String> SETSID = List.of("/usr/bin/setsid", "/bin/setsid");

  private final String java;
  private final List<String> jvmOptions;
  private final String classPath;

  public ProcessLauncher(String java, List<String> jvmOptions, String classPath) {
    this.java = java;
    this.jvmOptions = List.copyOf(jvmOptions);
    this.classPath = classPath;
  }

  /**
   * The launcher for this JVM: its java binary, its options (minus agents), its class path with
   * every entry made absolute (children run in the cluster's directory; {@code java -jar
   * cli/target/cairn-cli.jar} gives a relative one).
   */
  public static ProcessLauncher current() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessLauncher(
        java,
        jvmOptions(ManagementFactory.getRuntimeMXBean().getInputArguments()),
        absoluteClassPath(System.getProperty("java.class.path"), Path.of("").toAbsolutePath()));
  }

  /** {@code classPath} with every relative entry resolved against {@code base}. */
  static String absoluteClassPath(String classPath, Path base) {
    List<String> entries = new ArrayList<>();
    for (String entry : classPath.split(File.pathSeparator, -1)) {
      if (!entry.isEmpty()) {
        entries.add(base.resolve(entry).toAbsolutePath().normalize().toString());
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  /**
   * This JVM's options for a child: debugger and java agents dropped (they would clash on ports and
   * files), the export Agrona needs added when missing.
   */
  static List<String> jvmOptions(List<String> inputArguments) {
    List<String> options = new ArrayList<>();
    boolean exported = false;
    for (int i = 0; i < inputArguments.size(); i++) {
      String arg = inputArguments.get(i);
      if (arg.startsWith("-agentlib:")
          || arg.startsWith("-agentpath:")
          || arg.startsWith("-javaagent:")
          || arg.startsWith("-Xrunjdwp")) {
        continue;
      }
      if (arg.contains("jdk.internal.misc")) {
        exported = true;
      }
      options.add(arg);
    }
    if (!exported) {
      options.add(EXPORTS);
      options.add(AGRONA_EXPORT);
    }
    return options;
  }

  /** The full command line for {@code cairn <args>}. */
  public List<String> command(List<String> args) {
    List<String> command = new ArrayList<>();
    setsid().ifPresent(command::add);
    command.add(java);
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classPath);
    command.add(CairnMain.class.getName());
    command.addAll(args);
    return command;
  }

  /**
   * Starts {@code cairn <args>} detached, output appended to {@code log}.
   *
   * @return the child process
   * @throws CliException (exit 1) if it cannot be started
   */
  public Process start(List<String> args, Path log, Path workingDirectory) {
    ProcessBuilder builder = new ProcessBuilder(command(args));
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(name -> name.startsWith("CAIRN_"));
    builder.directory(workingDirectory.toFile());
    builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    try {
      Files.createDirectories(log.getParent());
      builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
      builder.redirectErrorStream(true);
      return builder.start();
    } catch (IOException e) {
      throw new CliException(
          ExitCode.FAILED, "Cannot start " + String.join(" ", args) + ": " + e.getMessage(), e);
    }
  }

  /**
   * Whether {@code handle} is a live {@code cairn} process started with {@code marker} (a
   * configuration file) among its arguments; guards against pids reused by other programs.
   */
  public static boolean isCairnProcess(ProcessHandle handle, String marker) {
    if (!handle.isAlive()) {
      return false;
    }
    Optional<String> commandLine = commandLine(handle);
    return commandLine.isPresent()
        && commandLine.get().contains(CairnMain.class.getName())
        && commandLine.get().contains(marker);
  }

  /**
   * The full command line: from {@code /proc/<pid>/cmdline} where it exists ({@link
   * ProcessHandle.Info#commandLine()} reads only its first page on Linux, which a long class path
   * fills), else from the process handle.
   */
  static Optional<String> commandLine(ProcessHandle handle) {
    Path proc = Path.of("/proc", Long.toString(handle.pid()), "cmdline");
    if (Files.isReadable(proc)) {
      try {
        byte[] bytes = Files.readAllBytes(proc);
        return Optional.of(new String(bytes, StandardCharsets.UTF_8).replace('\0', ' ').trim());
      } catch (IOException e) {
        return Optional.empty(); // the process ended meanwhile
      }
    }
    return handle.info().commandLine();
  }

  private static Optional<String> setsid() {
    return SETSID.stream().filter(path -> Files.isExecutable(Path.of(path))).findFirst();
  }
}
