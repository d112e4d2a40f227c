/**
 * Cairn's records: the envelope ({@link io.cairn.protocol.RecordMetadata}), the value types of the
 * ledger and of checkpoints with their intents, and the versioned binary codecs ({@link
 * io.cairn.protocol.RecordCodec}, {@link io.cairn.protocol.RecordBatchCodec}) whose layouts the
 * {@code *Descriptor} classes draw.
 */
package io.cairn.protocol;
