package io.cairn.auth;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a caller may do. Two roles, because there are two audiences: applications that move money,
 * and operators who can take, delete or restore every byte of the cluster's state.
 *
 * <ul>
 *   <li>{@link #CLIENT}: the ledger API (create accounts, deposit, transfer, read an account).
 *   <li>{@link #ADMIN}: everything a client may do, and the admin API: backups (take, list, read,
 *       delete), exporting (pause, resume), the cluster topology, the management endpoints.
 * </ul>
 *
 * <p>A role is written in files, claims and settings by its {@link #id()}: {@code client}, {@code
 * admin}.
 */
public enum Role {
  CLIENT("client"),
  ADMIN("admin");

  private final String id;

  Role(String id) {
    this.id = id;
  }

  /** The role as files, token claims and settings spell it: {@code client}, {@code admin}. */
  public String id() {
    return id;
  }

  /**
   * Whether holding this role is enough for an operation that requires {@code required}: a role
   * grants itself, and {@code ADMIN} also grants {@code CLIENT}.
   */
  public boolean grants(Role required) {
    return this == required || this == ADMIN;
  }

  /** The role spelled {@code id} (case-insensitive), or empty. */
  public static Optional<Role> fromId(String id) {
    String lower = id.strip().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(r -> r.id.equals(lower)).findFirst();
  }

  /** Every role's id, for messages: {@code client, admin}. */
  public static String ids() {
    return Arrays.stream(values()).map(Role::id).collect(Collectors.joining(", "));
  }

  /**
   * The ids of {@code roles} in declaration order, comma separated, as the credentials file has
   * them.
   */
  public static String ids(Set<Role> roles) {
    return roles.isEmpty()
        ? ""
        : EnumSet.copyOf(roles).stream().map(Role::id).collect(Collectors.joining(","));
  }

  @Override
  public String toString() {
    return id;
  }
}
