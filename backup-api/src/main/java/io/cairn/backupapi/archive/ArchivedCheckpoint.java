package io.cairn.backupapi.archive;

import java.util.Objects;

/**
 * A checkpoint whose {@code CHECKPOINT CREATED} event lies in an archived chunk: a restore point of
 * its partition. A point-in-time restore stops the log at its {@code CREATE} command and checks the
 * state digest recorded here.
 *
 * @param id the checkpoint id
 * @param position the position of its {@code CHECKPOINT CREATE} command
 * @param timestamp the command's timestamp, epoch milliseconds
 * @param stateDigest the state digest the {@code CREATED} event carries, lowercase hex
 */
public record ArchivedCheckpoint(long id, long position, long timestamp, String stateDigest) {

  public ArchivedCheckpoint {
    Objects.requireNonNull(stateDigest, "stateDigest");
    if (id < 1 || position < 1) {
      throw new IllegalArgumentException(
          "Expected a checkpoint id >= 1 and position >= 1, but was id "
              + id
              + " and position "
              + position);
    }
  }
}
