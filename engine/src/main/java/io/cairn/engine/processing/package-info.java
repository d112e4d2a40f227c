/**
 * The ledger's command processors and event appliers. Processors validate and decide (read-only,
 * deterministic); appliers are the only code that writes the ledger's state.
 */
package io.cairn.engine.processing;
