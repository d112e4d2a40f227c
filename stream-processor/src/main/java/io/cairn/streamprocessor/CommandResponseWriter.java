package io.cairn.streamprocessor;

import io.cairn.protocol.Record;

/**
 * Sends the response of a processed command to the client that asked. Called on the stream
 * processor's thread, only after the command's follow-up batch is committed, and only for commands
 * that carry a request id and a request stream id. Must not block (hand the response to the
 * transport).
 */
@FunctionalInterface
public interface CommandResponseWriter {

  /** A writer that drops every response (for followers and tests that do not look at them). */
  CommandResponseWriter NONE = (requestStreamId, requestId, response) -> {};

  /**
   * @param requestStreamId the stream (gateway connection) to answer on
   * @param requestId the request to answer
   * @param response the event or rejection that answers it; its position is the written record's
   *     when the response is one of the follow-up records, {@code NO_POSITION} otherwise
   */
  void sendResponse(int requestStreamId, long requestId, Record response);
}
