/** The ledger's state in the partition's database: typed access to its column families. */
package io.cairn.engine.state;
