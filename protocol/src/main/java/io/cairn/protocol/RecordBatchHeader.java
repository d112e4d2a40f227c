package io.cairn.protocol;

/**
 * The header of an encoded {@link RecordBatch}, read without decoding the records.
 *
 * @param recordCount the number of records, at least 1
 * @param lowestPosition the first record's position
 * @param highestPosition the last record's position, {@code >= lowestPosition}
 */
public record RecordBatchHeader(int recordCount, long lowestPosition, long highestPosition) {}
