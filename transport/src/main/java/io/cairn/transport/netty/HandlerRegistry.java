package io.cairn.transport.netty;

import io.cairn.transport.MessagingService.MessageHandler;
import io.cairn.transport.MessagingService.RequestHandler;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;

/** The handlers registered on one member, by message type; thread-safe. */
final class HandlerRegistry {

  /** A registered handler and the executor it runs on. */
  sealed interface Registration permits RequestRegistration, MessageRegistration {}

  record RequestRegistration(RequestHandler handler, Executor executor) implements Registration {}

  record MessageRegistration(MessageHandler handler, Executor executor) implements Registration {}

  private final int localNodeId;
  private final ConcurrentMap<String, Registration> registrations = new ConcurrentHashMap<>();

  HandlerRegistry(int localNodeId) {
    this.localNodeId = localNodeId;
  }

  void register(String type, Registration registration) {
    FrameDescriptor.typeBytes(type);
    Objects.requireNonNull(registration, "registration");
    Registration previous = registrations.putIfAbsent(type, registration);
    if (previous != null) {
      throw new IllegalStateException(
          "Expected no handler for type '"
              + type
              + "', but one is registered already (node "
              + localNodeId
              + "). Unregister it first");
    }
  }

  void unregister(String type) {
    registrations.remove(type);
  }

  /** The registration of {@code type}, or {@code null}. */
  Registration get(String type) {
    return registrations.get(type);
  }
}
