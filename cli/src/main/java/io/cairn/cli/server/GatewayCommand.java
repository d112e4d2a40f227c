package io.cairn.cli.server;

import io.cairn.cli.CairnMain;
import io.cairn.cli.CliContext;
import io.cairn.cli.ClientCommand;
import io.cairn.cli.ExitCode;
import io.cairn.gateway.GatewayMain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cairn gateway --config gateway.yaml}: runs the gateway in this process ({@link
 * GatewayMain}) until SIGTERM or Ctrl-C.
 */
@Command(
    name = "gateway",
    description = {
      "Runs the gateway (gRPC client and admin API, management HTTP) in this process until"
          + " SIGTERM or Ctrl-C (graceful shutdown, exit 143).",
      "Every key of the file can be overridden by an environment variable: CAIRN_ and the key's"
          + " path upper-cased with '_' for '.', e.g. CAIRN_GATEWAY_GRPC_PORT=26500.",
      "Exit codes here: 1 failed to start (a port in use), 2 bad configuration (every problem"
          + " listed)."
    })
public final class GatewayCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Option(
      names = "--config",
      required = true,
      paramLabel = "file",
      description = "The gateway's YAML configuration.")
  private Path config;

  @Override
  public Integer call() {
    CairnMain root = ClientCommand.root(spec);
    CliContext context = root.context();
    Path file = context.resolve(config);
    if (!Files.isRegularFile(file)) {
      throw new ParameterException(
          spec.commandLine(),
          "Expected --config to name a readable file, but " + file + " is none");
    }
    ProcessLogging.serverDefaults();
    int code =
        GatewayMain.run(new String[] {"--config", file.toString()}, context.env(), context.err());
    return switch (code) {
      case 0 -> ExitCode.OK;
      case GatewayMain.EXIT_USAGE -> ExitCode.USAGE;
      default -> ExitCode.FAILED;
    };
  }
}
