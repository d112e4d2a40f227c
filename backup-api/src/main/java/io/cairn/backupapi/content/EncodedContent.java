package io.cairn.backupapi.content;

import io.cairn.backupapi.Compression;

/**
 * What {@link ContentEncoder} wrote.
 *
 * @param sizeBytes source bytes read (the fixed length)
 * @param crc32c CRC32C of those bytes
 * @param storedSizeBytes bytes written to the target
 * @param compression how they were written
 */
public record EncodedContent(
    long sizeBytes, long crc32c, long storedSizeBytes, Compression compression) {}
