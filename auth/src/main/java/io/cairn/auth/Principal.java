package io.cairn.auth;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Who is calling: a name for the audit trail (an API key's id, a token's subject), the roles it
 * holds and how it authenticated. Holds no secret, so it may be logged and passed around freely.
 *
 * @param name the key id or the token's subject; never empty
 * @param roles the roles granted; possibly empty (a token whose claim maps to no role), which
 *     authenticates but is forbidden every operation
 * @param method how the caller authenticated
 */
public record Principal(String name, Set<Role> roles, AuthMethod method) {

  /** The name of the caller when authentication is off. */
  public static final String ANONYMOUS_NAME = "anonymous";

  public Principal {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(method, "method");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("Expected a principal name, but it is empty");
    }
    // in declaration order, for stable logs
    roles =
        Collections.unmodifiableSet(
            roles.isEmpty() ? EnumSet.noneOf(Role.class) : EnumSet.copyOf(roles));
  }

  /**
   * The caller when authentication is switched off: an administrator, so that a cluster without
   * security behaves as it did before authentication existed.
   */
  public static Principal anonymous() {
    return new Principal(ANONYMOUS_NAME, Set.of(Role.ADMIN), AuthMethod.NONE);
  }

  /** Whether one of the principal's roles grants {@code required} (see {@link Role#grants}). */
  public boolean has(Role required) {
    return roles.stream().anyMatch(r -> r.grants(required));
  }

  @Override
  public String toString() {
    return name + " (" + method + ", roles [" + Role.ids(roles) + "])";
  }
}
