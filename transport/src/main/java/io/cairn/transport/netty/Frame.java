package io.cairn.transport.netty;

/**
 * A decoded frame (see {@link FrameDescriptor}).
 *
 * @param kind request, response or message
 * @param status {@link FrameStatus#OK} except for failed responses
 * @param requestId the request's id; 0 for messages
 * @param senderNodeId the member that wrote the frame
 * @param type the message type; empty for responses
 * @param payload the payload, owned by the frame
 */
record Frame(
    FrameKind kind,
    FrameStatus status,
    long requestId,
    int senderNodeId,
    String type,
    byte[] payload) {}
