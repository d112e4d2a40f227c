package io.cairn.journal;

import java.nio.file.Path;

/**
 * A read-only description of one segment file at the moment it was taken.
 *
 * @param path the file
 * @param segmentId the segment's id (its order in the journal)
 * @param firstIndex the index of the segment's first record
 * @param lastIndex the index of its last record at that moment ({@code firstIndex - 1} if empty)
 * @param committedLengthBytes the bytes from the start of the file that hold the descriptor and the
 *     valid records at that moment
 */
public record JournalSegmentFile(
    Path path, long segmentId, long firstIndex, long lastIndex, long committedLengthBytes) {}
