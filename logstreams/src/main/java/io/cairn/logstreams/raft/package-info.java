/**
 * A {@link io.cairn.logstreams.LogStream} over one raft member: batches are written through the
 * leader's {@code RaftServer.append}, and committed entries are read from the member's journal.
 */
package io.cairn.logstreams.raft;
