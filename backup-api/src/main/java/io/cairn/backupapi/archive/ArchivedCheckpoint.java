package io.cairn.backupapi.archive;

import java.util.Objects;

/**
 * A restore point of one partition: a checkpoint whose {@code CHECKPOINT CREATED} event the archive
 * holds. A point-in-time restore appends the archived log up to {@link #index()}, stops it at the
 * {@code CREATE} command at {@link #position()} and checks the state digest recorded here.
 *
 * @param id the checkpoint id
 * @param position the position of its {@code CHECKPOINT CREATE} command
 * @param timestamp the command's timestamp, epoch milliseconds
 * @param stateDigest the state digest the {@code CREATED} event carries, lowercase hex
 * @param index the journal index of the record holding the {@code CREATED} event: the archive up to
 *     it holds everything the point needs
 */
public record ArchivedCheckpoint(
    long id, long position, long timestamp, String stateDigest, long index) {

  public ArchivedCheckpoint {
    Objects.requireNonNull(stateDigest, "stateDigest");
    if (id < 1 || position < 1 || index < 1) {
      throw new IllegalArgumentException(
          "Expected a checkpoint id, position and index >= 1, but was id "
              + id
              + ", position "
              + position
              + ", index "
              + index);
    }
  }
}
