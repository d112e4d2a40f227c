package io.cairn.auth;

import java.util.Objects;

/**
 * Something a caller asks a process to do, and the role it takes. The name is the one the process
 * already uses for the operation in its meters and logs ({@code Transfer}, {@code TakeBackup}), so
 * the audit trail, the meters and a refusal all speak of the same thing.
 *
 * @param name the operation's name, e.g. {@code TakeBackup}
 * @param requiredRole the role a principal must hold (or be granted by a role it holds)
 */
public record Operation(String name, Role requiredRole) {

  public Operation {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(requiredRole, "requiredRole");
    if (name.isBlank()) {
      throw new IllegalArgumentException("Expected an operation name, but it is blank");
    }
  }

  /** An operation of the ledger API, for {@link Role#CLIENT} and above. */
  public static Operation client(String name) {
    return new Operation(name, Role.CLIENT);
  }

  /** An operation of the admin API or the management endpoints, for {@link Role#ADMIN} only. */
  public static Operation admin(String name) {
    return new Operation(name, Role.ADMIN);
  }

  @Override
  public String toString() {
    return name + " (" + requiredRole + ")";
  }
}
