/**
 * Bounds-checked reading and writing of Cairn's little-endian binary formats on Agrona buffers.
 * Every read checks the remaining bytes first and reports a shortfall as a {@link
 * io.cairn.protocol.ProtocolException} with the offset; nothing is allocated by a length before
 * that length is checked against the bytes that are really there.
 */
package io.cairn.protocol.buffer;
