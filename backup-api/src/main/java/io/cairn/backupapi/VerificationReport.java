package io.cairn.backupapi;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The result of checking every stored file of a completed backup against its manifest, without
 * restoring it.
 *
 * @param id the backup
 * @param descriptor its descriptor
 * @param checkedFileCount files checked (every file in the manifest)
 * @param checkedBytes their uncompressed bytes according to the manifest
 * @param problems every file that is missing, truncated or does not match; empty iff clean
 */
public record VerificationReport(
    BackupIdentifier id,
    BackupDescriptor descriptor,
    int checkedFileCount,
    long checkedBytes,
    List<FileProblem> problems) {

  public VerificationReport {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(descriptor, "descriptor");
    problems = List.copyOf(problems);
  }

  public boolean isClean() {
    return problems.isEmpty();
  }

  /** A multi-line summary for operators. */
  public String describe() {
    if (isClean()) {
      return id + ": " + checkedFileCount + " files (" + checkedBytes + " bytes) match";
    }
    return id
        + ": "
        + problems.size()
        + " of "
        + checkedFileCount
        + " files do not match. "
        + "Delete this backup and take a new one, or restore from another copy.\n"
        + problems.stream().map(p -> "  " + p.describe()).collect(Collectors.joining("\n"));
  }
}
