package io.cairn.cli.server;

import io.cairn.broker.Broker;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.config.BrokerConfigReader;
import io.cairn.broker.node.NodeDescriptorMismatchException;
import io.cairn.cli.CairnMain;
import io.cairn.cli.CliContext;
import io.cairn.cli.CliException;
import io.cairn.cli.ClientCommand;
import io.cairn.cli.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cairn broker --config broker.yaml}: runs one broker in this process until SIGTERM or
 * Ctrl-C, which shut it down gracefully (the process then exits with 143).
 */
@Command(
    name = "broker",
    description = {
      "Runs a broker in this process until SIGTERM or Ctrl-C (graceful shutdown, exit 143).",
      "Every key of the file can be overridden by an environment variable: CAIRN_ and the key's"
          + " path upper-cased with '_' for '.', e.g. CAIRN_CLUSTER_NODEID=2.",
      "Exit codes here: 1 failed to start, 2 bad configuration (every problem listed),"
          + " 5 the data directory belongs to another node, cluster or partition count."
    })
public final class BrokerCommand implements Callable<Integer> {
  private static final String MDC_NODE_ID = "nodeId";

  @Spec private CommandSpec spec;

  @Option(
      names = "--config",
      required = true,
      paramLabel = "file",
      description = "The broker's YAML configuration.")
  private Path config;

  @Override
  public Integer call() {
    final CairnMain root = ClientCommand.root(spec);
    final CliContext context = root.context();
    final Path file = context.resolve(config);
    if (!Files.isRegularFile(file)) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(),
          "Expected --config to name a readable file, but " + file + " is none");
    }
    ProcessLogging.serverDefaults();
    final BrokerConfig brokerConfig;
    try {
      brokerConfig = BrokerConfigReader.read(file, context.env());
    } catch (final IllegalArgumentException e) {
      // BrokerConfigException lists every problem, each naming key, value and range
      throw new CliException(ExitCode.USAGE, e.getMessage(), e);
    }
    MDC.put(MDC_NODE_ID, Integer.toString(brokerConfig.cluster().nodeId()));
    final Logger log = LoggerFactory.getLogger(BrokerCommand.class);
    final Broker broker;
    try {
      broker = Broker.open(brokerConfig);
    } catch (final NodeDescriptorMismatchException e) {
      log.error("Refusing to start: {}", e.getMessage());
      throw new CliException(ExitCode.CONFLICT, e.getMessage(), e);
    } catch (final RuntimeException e) {
      log.error("Node {} failed to open", brokerConfig.cluster().nodeId(), e);
      throw new CliException(ExitCode.FAILED, "The broker failed to open: " + e, e);
    }
    final CountDownLatch stopped = new CountDownLatch(1);
    final Thread hook =
        new Thread(
            () -> {
              MDC.put(MDC_NODE_ID, Integer.toString(broker.nodeId()));
              broker.close();
              stopped.countDown();
            },
            "cairn-node-" + broker.nodeId() + "-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      broker.start();
    } catch (final RuntimeException e) {
      log.error("Node {} failed to start", broker.nodeId(), e);
      throw new CliException(ExitCode.FAILED, "The broker failed to start: " + e, e);
    }
    context
        .err()
        .println(
            "Broker "
                + broker.nodeId()
                + " started: transport "
                + broker.transportAddress()
                + ", management "
                + broker.managementAddress().map(Object::toString).orElse("off"));
    try {
      stopped.await();
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      broker.close();
    }
    return ExitCode.OK;
  }
}
