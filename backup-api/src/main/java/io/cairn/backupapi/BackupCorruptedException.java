package io.cairn.backupapi;

/** A restore found a stored file that does not match its manifest; nothing was left restored. */
public final class BackupCorruptedException extends BackupStoreException {

  private final BackupIdentifier id;
  private final FileProblem problem;

  public BackupCorruptedException(BackupIdentifier id, FileProblem problem) {
    super(
        "Expected every file of backup "
            + id
            + " to match its manifest, but "
            + problem.describe()
            + ". The restore was undone; restore another backup, or the same "
            + "partition's backup from another node.");
    this.id = id;
    this.problem = problem;
  }

  public BackupIdentifier id() {
    return id;
  }

  public FileProblem problem() {
    return problem;
  }
}
