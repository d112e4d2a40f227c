package io.cairn.cli.cluster;

import io.cairn.cli.CliException;
import io.cairn.cli.ExitCode;
import io.cairn.cli.Pause;
import io.cairn.client.CairnClient;
import io.cairn.client.CairnClientException;
import io.cairn.client.Topology;
import io.cairn.scheduler.Clock;
import io.cairn.units.Durations;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A cluster of broker processes and a gateway process on this machine, kept in a {@link
 * ClusterDirectory}: {@link #up} starts what is not running and waits until the gateway knows a
 * leader for every partition, {@link #status} reports processes and topology, {@link #down} stops
 * them with SIGTERM (SIGKILL after a timeout).
 */
public final class LocalCluster {
  private static final Duration POLL = Duration.ofMillis(250);
  private static final Duration KILL_WAIT = Duration.ofSeconds(10);
  private static final int LOG_TAIL_LINES = 20;

  private final ClusterDirectory dir;
  private final ProcessLauncher launcher;
  private final Clock clock;
  private final Function<String, CairnClient> clients;
  private final Consumer<String> progress;

  /**
   * @param clients opens a client of a gateway address (closed by this class)
   * @param progress receives progress lines
   */
  public LocalCluster(
      ClusterDirectory dir,
      ProcessLauncher launcher,
      Clock clock,
      Function<String, CairnClient> clients,
      Consumer<String> progress) {
    this.dir = dir;
    this.launcher = launcher;
    this.clock = clock;
    this.clients = clients;
    this.progress = progress;
  }

  public ClusterDirectory directory() {
    return dir;
  }

  /**
   * Stores the layout (if new), writes missing configuration files, starts every process that is
   * not running and waits until the gateway reports a leader for every partition and every broker
   * reachable — or, for a cluster made with {@code --restore-mode} whose brokers started empty,
   * until every broker waits for a restore.
   *
   * @return the processes (started or already running) and the topology
   * @throws CliException (exit 1) if a process exits while starting, (exit 3) on timeout
   */
  public Result up(ClusterLayout layout, Duration timeout) {
    dir.writeLayout(layout);
    for (Path file : ClusterConfigFiles.writeMissing(dir, layout)) {
      progress.accept("cluster: wrote " + file);
    }
    Map<String, Process> started = new LinkedHashMap<>();
    List<ProcessStatus> processes = new ArrayList<>();
    for (String name : ClusterDirectory.processNames(layout)) {
      Optional<ProcessHandle> running = running(name);
      if (running.isPresent()) {
        processes.add(status(name, running.get().pid(), "already running"));
        continue;
      }
      Process process =
          launcher.start(
              List.of(
                  name.equals(ClusterDirectory.GATEWAY) ? "gateway" : "broker",
                  "--config",
                  dir.configFile(name).toString()),
              dir.logFile(name),
              dir.root());
      dir.writePid(name, process.pid());
      started.put(name, process);
      processes.add(status(name, process.pid(), "started"));
      progress.accept("cluster: started " + name + " (pid " + process.pid() + ")");
    }
    Topology topology = awaitReady(layout, started, timeout);
    return new Result(processes, topology, "");
  }

  /** The processes and, if the gateway answers, the topology. */
  public Result status() {
    ClusterLayout layout = dir.requireLayout();
    List<ProcessStatus> processes = new ArrayList<>();
    for (String name : ClusterDirectory.processNames(layout)) {
      Optional<ProcessHandle> running = running(name);
      processes.add(
          running
              .map(h -> status(name, h.pid(), "running"))
              .orElseGet(() -> status(name, dir.readPid(name).orElse(-1L), "stopped")));
    }
    Topology topology = null;
    String gatewayError = "";
    try (CairnClient client = clients.apply(layout.gatewayAddress())) {
      topology = client.topology();
    } catch (CairnClientException e) {
      gatewayError = e.code() + ": " + e.getMessage();
    }
    return new Result(processes, topology, gatewayError);
  }

  /**
   * Sends SIGTERM to every running process (the gateway first), waits up to {@code timeout} for
   * each to exit, then kills what is left with SIGKILL.
   */
  public List<ProcessStatus> down(Duration timeout) {
    ClusterLayout layout = dir.requireLayout();
    List<String> names = new ArrayList<>(ClusterDirectory.processNames(layout));
    names.remove(ClusterDirectory.GATEWAY);
    names.add(0, ClusterDirectory.GATEWAY);
    Map<String, ProcessHandle> stopping = new LinkedHashMap<>();
    List<ProcessStatus> result = new ArrayList<>();
    for (String name : names) {
      Optional<ProcessHandle> running = running(name);
      if (running.isEmpty()) {
        dir.deletePid(name);
        result.add(status(name, -1, "not running"));
        continue;
      }
      progress.accept("cluster: stopping " + name + " (pid " + running.get().pid() + ")");
      running.get().destroy();
      stopping.put(name, running.get());
      if (name.equals(ClusterDirectory.GATEWAY)) {
        result.add(stop(name, running.get(), timeout));
        stopping.remove(name);
      }
    }
    for (Map.Entry<String, ProcessHandle> entry : stopping.entrySet()) {
      result.add(stop(entry.getKey(), entry.getValue(), timeout));
    }
    return result;
  }

  private ProcessStatus stop(String name, ProcessHandle handle, Duration timeout) {
    String state = "stopped";
    if (!awaitExit(handle, timeout)) {
      progress.accept(
          "cluster: "
              + name
              + " did not stop within "
              + Durations.formatRounded(timeout)
              + "; killing it");
      handle.destroyForcibly();
      state = "killed";
      if (!awaitExit(handle, KILL_WAIT)) {
        throw new CliException(
            ExitCode.FAILED,
            "Expected "
                + name
                + " (pid "
                + handle.pid()
                + ") to exit after SIGKILL, but it is"
                + " still running");
      }
    }
    dir.deletePid(name);
    progress.accept("cluster: " + name + " " + state);
    return status(name, handle.pid(), state);
  }

  private static boolean awaitExit(ProcessHandle handle, Duration timeout) {
    CompletableFuture<ProcessHandle> exit = handle.onExit();
    try {
      exit.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return !handle.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ExitCode.FAILED, "Interrupted", e);
    }
  }

  /** The live process recorded under {@code name}, if it still runs. */
  public Optional<ProcessHandle> running(String name) {
    return dir.readPid(name)
        .flatMap(ProcessHandle::of)
        .filter(h -> ProcessLauncher.isCairnProcess(h, dir.configFile(name).toString()));
  }

  private Topology awaitReady(
      ClusterLayout layout, Map<String, Process> started, Duration timeout) {
    long deadline = clock.nanos() + timeout.toNanos();
    String last = "";
    String lastError = "";
    try (CairnClient client = clients.apply(layout.gatewayAddress())) {
      while (true) {
        for (Map.Entry<String, Process> entry : started.entrySet()) {
          if (!entry.getValue().isAlive()) {
            throw new CliException(
                ExitCode.FAILED,
                "Expected "
                    + entry.getKey()
                    + " to keep running, but it exited"
                    + exitCode(entry.getValue())
                    + ". Last lines of "
                    + dir.logFile(entry.getKey())
                    + ":\n"
                    + tail(dir.logFile(entry.getKey())));
          }
        }
        Topology topology = null;
        String line;
        try {
          topology = client.topology();
          long reachable = topology.brokers().stream().filter(Topology.Broker::reachable).count();
          long led = topology.partitions().stream().filter(p -> p.leaderNodeId() >= 0).count();
          line =
              "cluster: "
                  + reachable
                  + "/"
                  + layout.brokers()
                  + " brokers reachable, "
                  + led
                  + "/"
                  + layout.partitions()
                  + " partitions with a leader";
          if (topology.hasAllLeaders() && reachable == layout.brokers()) {
            progress.accept(line);
            progress.accept("cluster: ready, gateway at " + layout.gatewayAddress());
            return topology;
          }
          if (dir.restoreMode() && awaitsRestore(client)) {
            progress.accept(
                "cluster: every broker waits for a restore (data.restoreMode): cairn --gateway "
                    + layout.gatewayAddress()
                    + " backup restore --backup-id <id>|latest | --to-time <instant> --wait");
            return topology;
          }
        } catch (CairnClientException e) {
          lastError = e.code() + ": " + e.getMessage();
          line = "cluster: waiting for the gateway at " + layout.gatewayAddress();
        }
        if (!line.equals(last)) {
          progress.accept(line);
          last = line;
        }
        if (clock.nanos() - deadline >= 0) {
          throw new CliException(
              ExitCode.UNAVAILABLE,
              "Expected a leader for every partition within "
                  + Durations.formatRounded(timeout)
                  + ", but "
                  + last.replace("cluster: ", "")
                  + (lastError.isEmpty() ? "" : " (last error: " + lastError + ")")
                  + ". See the logs in "
                  + dir.root().resolve("logs"));
        }
        Pause.of(POLL);
      }
    }
  }

  /** Whether every broker answers that it waits for a restore through the API. */
  private static boolean awaitsRestore(CairnClient client) {
    try {
      return client.restoreStatus().state().equals("WAITING");
    } catch (CairnClientException e) {
      return false;
    }
  }

  private static String exitCode(Process process) {
    return " with code " + process.exitValue();
  }

  /** The last lines of a log file (for error messages). */
  static String tail(Path log) {
    try {
      if (!Files.exists(log)) {
        return "  (no log)";
      }
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      StringBuilder text = new StringBuilder();
      for (String line : lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())) {
        text.append("  ").append(line).append('\n');
      }
      return text.toString();
    } catch (IOException e) {
      return "  (cannot read: " + e.getMessage() + ")";
    }
  }

  private ProcessStatus status(String name, long pid, String state) {
    return new ProcessStatus(name, pid, state, dir.logFile(name).toString());
  }

  /**
   * What {@code up} and {@code status} report.
   *
   * @param processes every process of the cluster
   * @param topology the gateway's view; {@code null} if it did not answer
   * @param gatewayError why the gateway did not answer; empty when it did
   */
  public record Result(List<ProcessStatus> processes, Topology topology, String gatewayError) {

    /** Every process runs and the gateway knows a leader for every partition. */
    public boolean healthy() {
      return processes.stream()
              .allMatch(p -> !p.state().equals("stopped") && !p.state().equals("not running"))
          && topology != null
          && topology.hasAllLeaders();
    }
  }
}
