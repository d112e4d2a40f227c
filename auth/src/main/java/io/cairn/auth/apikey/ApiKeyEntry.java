package io.cairn.auth.apikey;

import io.cairn.auth.Role;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * One key of the credentials file: its id, its roles, the hash of its secret and the line it is on.
 * {@link #toString()} leaves the hash out.
 */
public record ApiKeyEntry(String keyId, Set<Role> roles, ApiKeyHash hash, int line) {

  public ApiKeyEntry {
    Objects.requireNonNull(keyId, "keyId");
    Objects.requireNonNull(hash, "hash");
    roles = Collections.unmodifiableSet(EnumSet.copyOf(roles));
  }

  @Override
  public String toString() {
    return "ApiKeyEntry{" + keyId + ", roles [" + Role.ids(roles) + "], line " + line + "}";
  }
}
