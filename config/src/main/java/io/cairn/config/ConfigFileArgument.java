package io.cairn.config;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The command line of a Cairn process main: {@code --config <file>} (or {@code --config=<file>}),
 * and {@code --help}. Anything else is refused with the usage.
 */
public final class ConfigFileArgument {

  private ConfigFileArgument() {}

  /**
   * The configuration file the arguments name; empty after printing the usage (for {@code --help})
   * or the problem and the usage to {@code err}.
   */
  public static Optional<Path> parse(String[] args, String usage, PrintStream err) {
    Path file = null;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--config") && i + 1 < args.length) {
        file = Path.of(args[++i]);
      } else if (arg.startsWith("--config=")) {
        file = Path.of(arg.substring("--config=".length()));
      } else if (arg.equals("--help") || arg.equals("-h")) {
        err.println(usage);
        return Optional.empty();
      } else {
        err.println("Expected --config <file>, but got '" + arg + "'\n" + usage);
        return Optional.empty();
      }
    }
    if (file == null) {
      err.println("Expected --config <file>, but it is missing\n" + usage);
    }
    return Optional.ofNullable(file);
  }
}
