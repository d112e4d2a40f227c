package io.cairn.config;

import java.util.Locale;
import java.util.Objects;

/**
 * One key of a configuration file (a broker's, a gateway's).
 *
 * @param path the dotted path in the YAML file, e.g. {@code cluster.nodeId}
 * @param defaultValue the value when neither the file nor the environment sets it, written as in
 *     the file; {@code null} when the key has no default (required, or optional without one)
 * @param parser parses and range-checks a raw value
 * @param secret whether the value is redacted when the effective configuration is logged
 * @param description one line for the README's key table
 * @param <T> the typed value
 */
public record ConfigKey<T>(
    String path, String defaultValue, ValueParser<T> parser, boolean secret, String description) {

  /** Every environment variable that overrides a key starts with this. */
  public static final String ENV_PREFIX = "CAIRN_";

  public ConfigKey {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(parser, "parser");
    Objects.requireNonNull(description, "description");
  }

  /**
   * The environment variable that overrides this key: {@code CAIRN_} and the path's segments,
   * upper-cased, joined by {@code _} ({@code cluster.nodeId} → {@code CAIRN_CLUSTER_NODEID}).
   */
  public String envName() {
    return envName(path);
  }

  /** {@link #envName()} of any dotted path. */
  public static String envName(String path) {
    return ENV_PREFIX + path.replace('.', '_').toUpperCase(Locale.ROOT);
  }

  /** The allowed values in words. */
  public String rule() {
    return parser.rule();
  }
}
