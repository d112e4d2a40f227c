package io.cairn.backupapi.content;

/**
 * What {@link ContentDecoder} read.
 *
 * @param sizeBytes decoded bytes (at most the limit plus one chunk when {@code exceededLimit})
 * @param crc32c CRC32C of the decoded bytes
 * @param exceededLimit true if decoding stopped because the content was longer than the limit
 */
public record DecodedContent(long sizeBytes, long crc32c, boolean exceededLimit) {}
