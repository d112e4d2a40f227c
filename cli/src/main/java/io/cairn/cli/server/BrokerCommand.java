package io.cairn.cli.server;

import io.cairn.broker.BackupStoreOpenException;
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
    CairnMain root = ClientCommand.root(spec);
    CliContext context = root.context();
    Path file = context.resolve(config);
    if (!Files.isRegularFile(file)) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(),
          "Expected --config to name a readable file, but " + file + " is none");
    }
    ProcessLogging.serverDefaults();
    BrokerConfig brokerConfig;
    try {
      brokerConfig = BrokerConfigReader.read(file, context.env());
    } catch (IllegalArgumentException e) {
      // BrokerConfigException lists every problem, each naming key, value and range
      throw new CliException(ExitCode.USAGE, e.getMessage(), e);
    }
    MDC.put(MDC_NODE_ID, Integer.toString(brokerConfig.cluster().nodeId()));
    Logger log = LoggerFactory.getLogger(BrokerCommand.class);
    Broker broker;
    try {
      broker = Broker.open(brokerConfig);
    } catch (NodeDescriptorMismatchException e) {
      log.error("Refusing to start: {}", e.getMessage());
      throw new CliException(ExitCode.CONFLICT, e.getMessage(), e);
    } catch (RuntimeException e) {
      log.error("Node {} failed to open", brokerConfig.cluster().nodeId(), e);
      throw new CliException(ExitCode.FAILED, "The broker failed to open: " + e, e);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook =
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
    } catch (BackupStoreOpenException e) {
      // the message says what to fix; the trace helps only a developer
      log.error("Node {} failed to start: {}", broker.nodeId(), e.getMessage());
      log.debug("Node {}: the backup store's failure", broker.nodeId(), e);
      throw new CliException(ExitCode.FAILED, "The broker failed to start: " + e.getMessage(), e);
    } catch (RuntimeException e) {
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
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      broker.close();
    }
    return ExitCode.OK;
  }
}
