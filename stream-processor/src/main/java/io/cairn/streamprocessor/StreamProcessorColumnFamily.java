package io.cairn.streamprocessor;

import io.cairn.db.ColumnFamilyDefinition;
import java.util.List;

/**
 * The column families the stream processor keeps in the partition's state. Whoever opens the
 * partition's database must include them (see {@link #all()}).
 */
public enum StreamProcessorColumnFamily implements ColumnFamilyDefinition {
  /**
   * The last processed and last written positions ({@link ProcessingPositions}). Not in the state
   * digest: a restored partition reaches the same state with different positions (it writes again
   * the follow-ups dropped after the checkpoint), and the digest compares state only.
   */
  STREAM_PROCESSOR_POSITIONS;

  @Override
  public boolean includedInDigest() {
    return false;
  }

  /** Every family of the stream processor, to add to the families the database is opened with. */
  public static List<ColumnFamilyDefinition> all() {
    return List.of(values());
  }
}
