package io.cairn.auth;

/**
 * Decides whether an authenticated {@link Principal} may run an {@link Operation}: it may when one
 * of its roles grants the operation's required role ({@link Role#grants}: {@code admin} grants
 * {@code client}). Pure and stateless, so that every transport asks the same question the same way.
 */
public final class Authorizer {

  private Authorizer() {}

  /** Whether {@code principal} may run {@code operation}. */
  public static Authorization authorize(Principal principal, Operation operation) {
    if (principal.has(operation.requiredRole())) {
      return new Authorization.Allowed(principal, operation);
    }
    String held = principal.roles().isEmpty() ? "none" : Role.ids(principal.roles());
    String required = operation.requiredRole().id();
    return new Authorization.Forbidden(
        principal,
        operation,
        "Expected role "
            + required
            + " for "
            + operation.name()
            + ", but the caller's roles are: "
            + held
            + ". Use credentials with role "
            + required,
        principal.name()
            + " ("
            + principal.method()
            + ") holds roles ["
            + (principal.roles().isEmpty() ? "" : Role.ids(principal.roles()))
            + "], "
            + operation.name()
            + " needs "
            + required);
  }
}
