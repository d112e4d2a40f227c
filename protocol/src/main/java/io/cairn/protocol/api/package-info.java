/**
 * The messages between the gateway and the brokers, carried over the transport's request/response
 * ({@code MessagingService.sendAndReceive}): a ledger command routed to a partition leader, an
 * account query, a broker's topology, backup queries and exporting control. {@link
 * io.cairn.protocol.api.ApiDescriptor} draws every layout; each message type has one {@code *Codec}
 * that encodes and decodes both its request and its response. Decoding is bounds-checked like the
 * rest of this module: any bad input is a {@link io.cairn.protocol.ProtocolException}.
 *
 * <p>{@link io.cairn.protocol.api.AccountPlacement} is the rule that places accounts on partitions,
 * shared by whoever routes or processes ledger commands.
 */
package io.cairn.protocol.api;
