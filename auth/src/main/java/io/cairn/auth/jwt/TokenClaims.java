package io.cairn.auth.jwt;

import com.nimbusds.jwt.JWTClaimsSet;
import io.cairn.auth.Role;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the claims that make a principal out of a verified token: its name and its roles, from
 * claims the operator names.
 */
final class TokenClaims {

  /** At most this many role values are looked at; a token with more is odd, not more powerful. */
  private static final int MAX_ROLE_VALUES = 256;

  private static final Pattern SEPARATORS = Pattern.compile("[\\s,]+");

  private TokenClaims() {}

  /**
   * The claim {@code name}; when there is none and the name has dots, the path through nested
   * objects ({@code realm_access.roles}). A claim named with dots (a namespaced URL) wins.
   */
  static Optional<Object> claim(JWTClaimsSet claims, String name) {
    Object direct = claims.getClaim(name);
    if (direct != null || name.indexOf('.') < 0) {
      return Optional.ofNullable(direct);
    }
    Object node = claims.getClaims();
    for (String part : name.split("\\.", -1)) {
      if (!(node instanceof Map<?, ?> map)) {
        return Optional.empty();
      }
      node = map.get(part);
    }
    return Optional.ofNullable(node);
  }

  /**
   * The roles the claim's values map to: a string holds values separated by spaces or commas (as
   * OAuth's {@code scope}), an array holds strings. Values without a mapping are ignored.
   */
  static Set<Role> roles(Object value, Map<String, Role> mapping) {
    Set<Role> roles = EnumSet.noneOf(Role.class);
    if (value instanceof String text) {
      SEPARATORS
          .splitAsStream(text.strip())
          .limit(MAX_ROLE_VALUES)
          .map(mapping::get)
          .filter(r -> r != null)
          .forEach(roles::add);
    } else if (value instanceof Collection<?> values) {
      values.stream()
          .limit(MAX_ROLE_VALUES)
          .filter(v -> v instanceof String)
          .map(v -> mapping.get(((String) v).strip()))
          .filter(r -> r != null)
          .forEach(roles::add);
    }
    return roles;
  }
}
