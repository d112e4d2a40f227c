/**
 * Durations and byte sizes as people write them: one grammar, read and printed the same way by
 * every input of Cairn. See {@link io.cairn.units.Durations} and {@link io.cairn.units.ByteSizes}.
 */
package io.cairn.units;
