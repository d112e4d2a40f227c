package io.cairn.restore;

import io.cairn.backup.restore.DigestCheck;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.FileProblem;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a verification found for one partition.
 *
 * @param partitionId the partition
 * @param source the backup copy checked
 * @param filesChecked files whose size and CRC32C were checked
 * @param bytesChecked their bytes
 * @param fileProblems every file that does not match its manifest; empty iff the checksums match
 * @param expectedDigest the state digest the backup recorded
 * @param digest the rebuild's comparison at the checkpoint; empty for a quick verification, when a
 *     file did not match, or when the rebuild failed
 * @param failure why the partition could not be rebuilt or its log not be installed, if so
 */
public record PartitionVerification(
    int partitionId,
    BackupIdentifier source,
    int filesChecked,
    long bytesChecked,
    List<FileProblem> fileProblems,
    String expectedDigest,
    Optional<DigestCheck> digest,
    Optional<String> failure) {

  public PartitionVerification {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(expectedDigest, "expectedDigest");
    Objects.requireNonNull(digest, "digest");
    Objects.requireNonNull(failure, "failure");
    fileProblems = List.copyOf(fileProblems);
  }

  public boolean checksumsMatch() {
    return fileProblems.isEmpty();
  }

  /** The rebuilt state's digest, if the rebuild reached the checkpoint. */
  public Optional<String> actualDigest() {
    return digest.flatMap(DigestCheck::actualDigest);
  }

  /**
   * True iff every file matched, nothing failed, and — unless {@code quick} — the rebuilt digest
   * equals the expected one.
   */
  public boolean isClean(boolean quick) {
    return checksumsMatch()
        && failure.isEmpty()
        && (quick || digest.map(DigestCheck::matches).orElse(false));
  }

  /** Lines for operators: the counts, the checksum result, the digests, and what is wrong. */
  public String describe(boolean quick) {
    StringBuilder text =
        new StringBuilder()
            .append("partition ")
            .append(partitionId)
            .append(" (")
            .append(source)
            .append("): ")
            .append(filesChecked)
            .append(" files, ")
            .append(bytesChecked)
            .append(" bytes, checksums ")
            .append(checksumsMatch() ? "OK" : "MISMATCH");
    if (!quick) {
      text.append(", digest expected ")
          .append(expectedDigest)
          .append(" actual ")
          .append(actualDigest().orElse("-"))
          .append(digest.map(d -> d.matches() ? " OK" : " MISMATCH").orElse(""));
    }
    text.append(isClean(quick) ? " — clean" : " — NOT CLEAN");
    if (!fileProblems.isEmpty()) {
      text.append('\n')
          .append(
              fileProblems.stream()
                  .map(p -> "    " + p.describe())
                  .collect(Collectors.joining("\n")));
    }
    digest.filter(d -> !d.matches()).ifPresent(d -> text.append("\n    ").append(d.describe()));
    failure.ifPresent(f -> text.append("\n    ").append(f));
    return text.toString();
  }
}
