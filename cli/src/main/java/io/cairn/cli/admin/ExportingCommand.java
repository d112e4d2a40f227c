package io.cairn.cli.admin;

import io.cairn.cli.ClientCommand;
import io.cairn.cli.ExitCode;
import io.cairn.cli.output.Printer;
import io.cairn.client.CairnClient;
import io.cairn.client.ExportingState;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code cairn exporting pause|resume}: cluster-wide; the paused state survives restarts. */
@Command(
    name = "exporting",
    description = "Pauses or resumes exporting on every broker (the state survives restarts).",
    subcommands = {ExportingCommand.Pause.class, ExportingCommand.Resume.class})
public final class ExportingCommand implements Runnable {

  @Spec private CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Expected one of pause, resume, but got none");
  }

  @Command(name = "pause", description = "Pauses exporting on every broker.")
  static final class Pause extends ClientCommand {
    @Override
    protected int run(CairnClient client, Printer printer) {
      return print(client.pauseExporting(), printer);
    }
  }

  @Command(name = "resume", description = "Resumes exporting on every broker.")
  static final class Resume extends ClientCommand {
    @Override
    protected int run(CairnClient client, Printer printer) {
      return print(client.resumeExporting(), printer);
    }
  }

  private static int print(ExportingState state, Printer printer) {
    printer.result(
        state,
        out ->
            out.println(
                "Exporting "
                    + (state.paused() ? "paused" : "resumed")
                    + " on brokers "
                    + state.nodeIds()
                    + "."));
    return ExitCode.OK;
  }
}
