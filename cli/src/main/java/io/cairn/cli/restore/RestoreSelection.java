package io.cairn.cli.restore;

import io.cairn.restore.BackupSelector;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * What a restore goes to, exactly one of: a backup ({@code --backup-id}), a restore point of the
 * log archive by checkpoint id ({@code --to-checkpoint}), or the newest restore point at or before
 * a time ({@code --to-time}). Shared by {@code cairn restore} and {@code cairn cluster restore} as
 * an exclusive argument group.
 */
public final class RestoreSelection {

  @Option(
      names = "--backup-id",
      paramLabel = "id|latest",
      description = "The backup, or 'latest': the newest completed on every partition.")
  String backupId;

  @Option(
      names = "--to-checkpoint",
      paramLabel = "id",
      description =
          "A restore point of the log archive (backup.archive.enabled): the newest backup at or"
              + " before it, continued from the archive up to that checkpoint.")
  String toCheckpoint;

  @Option(
      names = "--to-time",
      paramLabel = "instant",
      description =
          "The newest restore point taken at or before this time on every partition, e.g."
              + " 2026-12-02T10:15:30Z.")
  String toTime;

  /**
   * @throws ParameterException (exit 2) naming the option and the bad value
   */
  public BackupSelector selector(CommandSpec spec) {
    if (backupId != null) {
      return RestoreInputs.selector(spec, "--backup-id", backupId);
    }
    if (toCheckpoint != null) {
      try {
        return new BackupSelector.ToCheckpoint(Long.parseLong(toCheckpoint.trim()));
      } catch (IllegalArgumentException e) {
        throw new ParameterException(
            spec.commandLine(),
            "Expected --to-checkpoint to be a checkpoint id >= 1, but was '" + toCheckpoint + "'");
      }
    }
    try {
      return new BackupSelector.ToTime(Instant.parse(toTime.trim()));
    } catch (DateTimeParseException | NullPointerException e) {
      throw new ParameterException(
          spec.commandLine(),
          "Expected --to-time to be an ISO-8601 instant such as 2026-12-02T10:15:30Z, but was '"
              + toTime
              + "'");
    }
  }
}
