package io.cairn.broker.node;

/**
 * The data directory was made for another node, cluster or partition count, or its node descriptor
 * cannot be trusted. The message says what differs and what the operator can do.
 */
public final class NodeDescriptorMismatchException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  public NodeDescriptorMismatchException(String message) {
    super(message);
  }
}
