package io.cairn.auth;

import java.util.Objects;

/**
 * Whether a principal may run an operation: {@link Allowed}, or {@link Forbidden} with what the
 * caller is told and what the operator's log says.
 */
public sealed interface Authorization {

  /** Whether the operation may run. */
  boolean allowed();

  /** The principal may run the operation. */
  record Allowed(Principal principal, Operation operation) implements Authorization {
    @Override
    public boolean allowed() {
      return true;
    }
  }

  /**
   * The principal may not run the operation (gRPC {@code PERMISSION_DENIED}, HTTP 403).
   *
   * @param publicMessage what the caller is told: the operation and the role it takes
   * @param reason for logs and the audit trail: also who asked and which roles they hold
   */
  record Forbidden(Principal principal, Operation operation, String publicMessage, String reason)
      implements Authorization {
    public Forbidden {
      Objects.requireNonNull(publicMessage, "publicMessage");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public boolean allowed() {
      return false;
    }
  }
}
