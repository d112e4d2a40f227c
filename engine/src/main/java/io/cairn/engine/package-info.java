/**
 * The ledger engine (DESIGN.md §6): accounts, deposits, same- and cross-partition transfers, and
 * the cross-partition credit protocol. {@link io.cairn.engine.LedgerEngine} registers the
 * processors and appliers with a stream processor; {@link io.cairn.engine.LedgerState} answers
 * read-only queries; {@link io.cairn.protocol.api.AccountPlacement} says which partition owns an
 * account; {@link io.cairn.engine.InterPartitionSender} and {@link
 * io.cairn.engine.InterPartitionReceiver} are the seams to the transport between partitions. See
 * the module README for commands, events, rejections and the conservation invariant.
 */
package io.cairn.engine;
