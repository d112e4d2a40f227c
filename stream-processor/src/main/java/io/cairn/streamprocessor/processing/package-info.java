/**
 * The stream processor's machinery: processing one command ({@link
 * io.cairn.streamprocessor.processing.CommandProcessing}), replaying events ({@link
 * io.cairn.streamprocessor.processing.EventReplay}), collecting a command's result ({@link
 * io.cairn.streamprocessor.processing.ResultCollector}) and running what waits for a commit ({@link
 * io.cairn.streamprocessor.processing.PostCommitQueue}). Used only by {@link
 * io.cairn.streamprocessor.StreamProcessor}, on its thread.
 */
package io.cairn.streamprocessor.processing;
