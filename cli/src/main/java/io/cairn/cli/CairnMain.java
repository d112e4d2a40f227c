package io.cairn.cli;

import io.cairn.broker.BrokerVersion;
import io.cairn.cli.admin.BackupCommand;
import io.cairn.cli.admin.ExportingCommand;
import io.cairn.cli.admin.TopologyCommand;
import io.cairn.cli.cluster.ClusterCommand;
import io.cairn.cli.demo.DemoCommand;
import io.cairn.cli.ledger.AccountCommand;
import io.cairn.cli.load.LoadCommand;
import io.cairn.cli.output.OutputFormat;
import io.cairn.cli.output.Printer;
import io.cairn.cli.restore.RestoreCommand;
import io.cairn.cli.security.SecurityCommand;
import io.cairn.cli.server.BrokerCommand;
import io.cairn.cli.server.GatewayCommand;
import io.cairn.client.CairnClient;
import io.cairn.client.CairnClientException;
import io.cairn.client.HostPort;
import io.cairn.client.RetryPolicy;
import io.cairn.units.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code cairn} command: {@code cairn [--gateway host:port] [--output table|json] [--api-key
 * key | --token jwt | --credentials-file file] <command>}. {@link #main} runs it in this process
 * and exits with the command's {@link ExitCode}; {@link #execute} runs it against a given {@link
 * CliContext} and returns the code (tests, the demo).
 */
@Command(
    name = "cairn",
    mixinStandardHelpOptions = true,
    scope = ScopeType.INHERIT,
    versionProvider = CairnMain.Version.class,
    usageHelpAutoWidth = true,
    synopsisSubcommandLabel = "<command>",
    description =
        "Runs and operates a Cairn cluster: brokers, the gateway, a local cluster,"
            + " backups, restores, ledger operations and load.",
    footerHeading = "%nExit codes:%n",
    footer = {
      "  0  ok",
      "  1  the operation failed (a FAILED backup, money not conserved, an error)",
      "  2  usage or validation error (INVALID_ARGUMENT)",
      "  3  unavailable or unreachable, retry later (UNAVAILABLE,",
      "     RESOURCE_EXHAUSTED; DEADLINE_EXCEEDED: the outcome is unknown)",
      "  4  not found (NOT_FOUND)",
      "  5  conflict or already exists (ALREADY_EXISTS; FAILED_PRECONDITION:",
      "     insufficient funds, a backup in progress)",
      "  6  access refused: no valid credentials (UNAUTHENTICATED) or not the",
      "     role (PERMISSION_DENIED)"
    },
    subcommands = {
      BrokerCommand.class,
      GatewayCommand.class,
      ClusterCommand.class,
      BackupCommand.class,
      RestoreCommand.class,
      ExportingCommand.class,
      TopologyCommand.class,
      AccountCommand.class,
      LoadCommand.class,
      DemoCommand.class,
      SecurityCommand.class
    })
public final class CairnMain implements Runnable {

  /** The gateway when neither {@code --gateway} nor {@code CAIRN_GATEWAY} says otherwise. */
  public static final String DEFAULT_GATEWAY = "127.0.0.1:26500";

  /** The environment variable naming the gateway. */
  public static final String GATEWAY_ENV = "CAIRN_GATEWAY";

  /** The environment variable naming the CA file that makes the CLI speak TLS. */
  public static final String CA_FILE_ENV = "CAIRN_CA_FILE";

  static final Duration REQUEST_TIMEOUT_MIN = Duration.ofMillis(100);
  static final Duration REQUEST_TIMEOUT_MAX = Duration.ofMinutes(10);

  @Spec private CommandSpec spec;

  @Option(
      names = "--gateway",
      scope = ScopeType.INHERIT,
      paramLabel = "host:port",
      description =
          "The gateway's gRPC address (default: $"
              + GATEWAY_ENV
              + ", else "
              + DEFAULT_GATEWAY
              + ").")
  private String gateway;

  @Option(
      names = "--output",
      scope = ScopeType.INHERIT,
      paramLabel = "table|json",
      description = "Tables for people (default) or one JSON document per command.")
  private OutputFormat output = OutputFormat.TABLE;

  @Option(
      names = "--ca-file",
      scope = ScopeType.INHERIT,
      paramLabel = "file",
      description =
          "Speak TLS to the gateway, trusting the CA certificates in this PEM file (default: $"
              + CA_FILE_ENV
              + ", else plaintext).")
  private Path caFile;

  @Option(
      names = "--api-key",
      scope = ScopeType.INHERIT,
      paramLabel = "keyId.secret",
      description =
          "Present this API key to the gateway (default: $"
              + CliCredentials.API_KEY_ENV
              + "). Visible in ps and the shell's history: prefer --credentials-file or the"
              + " variable.")
  private String apiKey;

  @Option(
      names = "--token",
      scope = ScopeType.INHERIT,
      paramLabel = "jwt",
      description =
          "Present this bearer token to the gateway (default: $"
              + CliCredentials.TOKEN_ENV
              + "). Visible in ps and the shell's history: prefer --credentials-file or the"
              + " variable.")
  private String token;

  @Option(
      names = "--credentials-file",
      scope = ScopeType.INHERIT,
      paramLabel = "file",
      description =
          "Present the API key or token this file holds (one line; 'ApiKey ' or 'Bearer ' before"
              + " it optional). At most one of --api-key, --token, --credentials-file.")
  private Path credentialsFile;

  @Option(
      names = "--request-timeout",
      scope = ScopeType.INHERIT,
      paramLabel = "duration",
      description = "Deadline of each call to the gateway, e.g. 15s (default: 15s).")
  private Duration requestTimeout = Duration.ofSeconds(15);

  private final CliContext context;
  private Printer printer;
  private Optional<CliCredentials.Credential> credentials;

  public CairnMain(CliContext context) {
    this.context = Objects.requireNonNull(context, "context");
  }

  public static void main(String[] args) {
    System.exit(execute(args, CliContext.system()));
  }

  /** Runs {@code args} and returns the exit code (never calls {@code System.exit}). */
  public static int execute(String[] args, CliContext context) {
    return commandLine(context).execute(args);
  }

  /** The configured command line (converters, error handlers, streams of {@code context}). */
  public static CommandLine commandLine(CliContext context) {
    CairnMain main = new CairnMain(context);
    CommandLine cli = new CommandLine(main);
    cli.registerConverter(Duration.class, Durations::parseOrThrow);
    cli.registerConverter(HostPort.class, text -> HostPort.parse("the address", text));
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.setOut(new java.io.PrintWriter(context.out(), true));
    cli.setErr(new java.io.PrintWriter(context.err(), true));
    cli.setParameterExceptionHandler(main::onUsageError);
    cli.setExecutionExceptionHandler((e, command, parseResult) -> main.onFailure(e));
    return cli;
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Expected a command, but got none");
  }

  public CliContext context() {
    return context;
  }

  /**
   * The gateway address: {@code --gateway}, else {@code $CAIRN_GATEWAY}, else {@value
   * #DEFAULT_GATEWAY}.
   *
   * @throws ParameterException if it is not host:port
   */
  public HostPort gateway() {
    String value;
    String source;
    if (gateway != null) {
      value = gateway;
      source = "--gateway";
    } else if (context.env().get(GATEWAY_ENV) != null
        && !context.env().get(GATEWAY_ENV).isBlank()) {
      value = context.env().get(GATEWAY_ENV);
      source = "$" + GATEWAY_ENV;
    } else {
      value = DEFAULT_GATEWAY;
      source = "default";
    }
    try {
      return HostPort.parse("--gateway", value);
    } catch (CairnClientException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage() + " (" + source + ")");
    }
  }

  public OutputFormat output() {
    return output;
  }

  /**
   * The per-call deadline.
   *
   * @throws ParameterException outside [100ms, 10m]
   */
  public Duration requestTimeout() {
    if (requestTimeout.compareTo(REQUEST_TIMEOUT_MIN) < 0
        || requestTimeout.compareTo(REQUEST_TIMEOUT_MAX) > 0) {
      throw new ParameterException(
          spec.commandLine(),
          "Expected --request-timeout in [100ms, 10m], but was "
              + Durations.formatRounded(requestTimeout));
    }
    return requestTimeout;
  }

  /** The output of this invocation (one per process run). */
  public synchronized Printer printer() {
    if (printer == null) {
      printer = new Printer(output, context.out(), context.err());
    }
    return printer;
  }

  /** A client of {@link #gateway()}; the caller closes it. */
  public CairnClient connect() {
    return connect(gateway().toString());
  }

  /** A client of {@code address} with the default retry policy; the caller closes it. */
  public CairnClient connect(String address) {
    return connect(address, RetryPolicy.defaults());
  }

  /** A client of {@code address}; the caller closes it. */
  public CairnClient connect(String address, RetryPolicy retryPolicy) {
    return connect(address, retryPolicy, Optional.empty(), Optional.empty());
  }

  /**
   * A client of {@code address}, speaking TLS with {@link #caFile()} or else {@code caFile} (a
   * local cluster's own CA), presenting the credentials given ({@link #credentials()}) or else
   * {@code authorization} (a local cluster's admin key); the caller closes it.
   */
  public CairnClient connect(
      String address,
      RetryPolicy retryPolicy,
      Optional<Path> caFile,
      Optional<String> authorization) {
    return context
        .clients()
        .connect(
            new CliContext.Connection(
                address,
                requestTimeout(),
                retryPolicy,
                caFile().or(() -> caFile),
                credentials()
                    .map(CliCredentials.Credential::authorization)
                    .or(() -> authorization)));
  }

  /**
   * The credentials to present: {@code --api-key}, {@code --token} or {@code --credentials-file},
   * else {@code $CAIRN_API_KEY} or {@code $CAIRN_TOKEN}; read once.
   *
   * @throws ParameterException for conflicting settings or a file that cannot be used
   */
  synchronized Optional<CliCredentials.Credential> credentials() {
    if (credentials == null) {
      try {
        credentials =
            CliCredentials.resolve(
                apiKey,
                token,
                credentialsFile,
                context.env(),
                context.workingDirectory(),
                warning -> {
                  context.err().println(warning);
                  context.err().flush();
                });
      } catch (CliCredentials.InvalidCredentialsException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
    }
    return credentials;
  }

  /** The CA file for TLS: {@code --ca-file}, else {@code $CAIRN_CA_FILE} (relative: to the cwd). */
  public Optional<Path> caFile() {
    if (caFile != null) {
      return Optional.of(context.workingDirectory().resolve(caFile));
    }
    String value = context.env().get(CA_FILE_ENV);
    return value == null || value.isBlank()
        ? Optional.empty()
        : Optional.of(context.workingDirectory().resolve(value));
  }

  private int onUsageError(ParameterException e, String[] args) {
    CommandLine cli = e.getCommandLine();
    java.io.PrintWriter err = cli.getErr();
    err.println("Error: " + e.getMessage());
    if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, err)) {
      err.println(
          "Try '" + cli.getCommandSpec().qualifiedName() + " --help' for more information.");
    }
    err.flush();
    printJsonError("USAGE", e.getMessage(), ExitCode.USAGE);
    return ExitCode.USAGE;
  }

  private int onFailure(Exception e) {
    int code;
    String message;
    String kind;
    if (e instanceof CliException failure) {
      code = failure.exitCode();
      message = failure.getMessage();
      kind = kindOf(code);
    } else if (e instanceof CairnClientException failure) {
      code = ExitCode.of(failure.code());
      kind = String.valueOf(failure.code());
      message = kind + ": " + accessHint(failure);
    } else {
      code = ExitCode.FAILED;
      kind = "FAILED";
      message = e.toString();
      e.printStackTrace(context.err());
    }
    context.err().println("Error: " + message);
    context.err().flush();
    printJsonError(kind, message, code);
    return code;
  }

  /** The failure's message, with what to do about a refusal of access. */
  private String accessHint(CairnClientException failure) {
    return CliCredentials.explain(
        failure,
        credentials == null
            ? Optional.empty()
            : credentials.map(CliCredentials.Credential::source));
  }

  private void printJsonError(String kind, String message, int code) {
    if (output == OutputFormat.JSON && (printer == null || !printer.hasResult())) {
      Map<String, Object> error = new LinkedHashMap<>();
      error.put("code", kind);
      error.put("message", message);
      error.put("exitCode", code);
      context.out().println(Printer.toJson(Map.of("error", error)));
      context.out().flush();
    }
  }

  private static String kindOf(int exitCode) {
    return switch (exitCode) {
      case ExitCode.USAGE -> "USAGE";
      case ExitCode.UNAVAILABLE -> "UNAVAILABLE";
      case ExitCode.NOT_FOUND -> "NOT_FOUND";
      case ExitCode.CONFLICT -> "CONFLICT";
      case ExitCode.DENIED -> "DENIED";
      default -> "FAILED";
    };
  }

  /** {@code cairn --version}. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"cairn " + BrokerVersion.current()};
    }
  }
}
