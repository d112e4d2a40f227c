package io.cairn.backupapi.archive;

import java.util.Objects;

/**
 * One record of a partition's raft journal as the archive keeps it: exactly what a journal needs to
 * append it again (a replicated record keeps its index, asqn and checksum).
 *
 * @param index the record's journal index, at least 1
 * @param asqn its application sequence number (the position of its first log record), or -1
 * @param checksum the journal's CRC32C of the record (index, asqn and data)
 * @param data the record's bytes: a raft entry
 */
public record ArchivedRecord(long index, long asqn, int checksum, byte[] data) {

  public ArchivedRecord {
    Objects.requireNonNull(data, "data");
    if (index < 1) {
      throw new IllegalArgumentException("Expected an index >= 1, but was " + index);
    }
  }
}
