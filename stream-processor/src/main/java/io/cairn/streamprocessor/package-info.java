/**
 * Processing (on the leader) and replay (on followers and at restart) of a partition's log: the
 * {@link io.cairn.streamprocessor.StreamProcessor} actor, the {@link
 * io.cairn.streamprocessor.RecordProcessors} registry of command processors, event appliers and
 * command interceptors, and the values it reports (health, positions, metrics). See the module
 * README for the processing model and its ordering guarantees.
 */
package io.cairn.streamprocessor;
