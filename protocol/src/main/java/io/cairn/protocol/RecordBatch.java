package io.cairn.protocol;

import java.util.List;
import java.util.Objects;

/**
 * The records of one raft entry: at least one record, positions strictly increasing.
 *
 * @param records the records in log order; copied, unmodifiable
 */
public record RecordBatch(List<Record> records) {

  /**
   * @throws IllegalArgumentException if empty or the positions do not strictly increase
   */
  public RecordBatch {
    records = List.copyOf(Objects.requireNonNull(records, "records"));
    String violation = positionViolation(records);
    if (violation != null) {
      throw new IllegalArgumentException(violation);
    }
  }

  public static RecordBatch of(Record... records) {
    return new RecordBatch(List.of(records));
  }

  /** The position of the first record. */
  public long lowestPosition() {
    return records.get(0).position();
  }

  /** The position of the last record. */
  public long highestPosition() {
    return records.get(records.size() - 1).position();
  }

  public int size() {
    return records.size();
  }

  /** Shared by the constructor and the decoder; {@code null} if the records form a batch. */
  static String positionViolation(List<Record> records) {
    if (records.isEmpty()) {
      return "Expected at least 1 record in a batch, but was 0";
    }
    for (int i = 1; i < records.size(); i++) {
      long previous = records.get(i - 1).position();
      long current = records.get(i).position();
      if (current <= previous) {
        return "Expected strictly increasing positions in a batch, but record "
            + i
            + " has position "
            + current
            + " after "
            + previous;
      }
    }
    return null;
  }
}
