/**
 * The replicated log as seen by processing: {@link io.cairn.logstreams.LogStream} with strictly
 * increasing record positions, a batch {@link io.cairn.logstreams.LogStreamWriter} that answers
 * backpressure as a value, and a {@link io.cairn.logstreams.LogStreamReader} over committed records
 * only. {@code io.cairn.logstreams.raft} implements it over a raft member.
 */
package io.cairn.logstreams;
