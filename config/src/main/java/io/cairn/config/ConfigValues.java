package io.cairn.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Typed values of a {@link RawConfig}: each key parsed and range-checked, with a violation that
 * names the key, the rule, the bad value, where it came from and its environment variable; and the
 * effective settings (what a process logs once at start), secrets redacted.
 *
 * <p>A key that fails to parse falls back to its default so that reading goes on and every problem
 * is reported at once; {@link #allValid} tells rules across keys to skip failed keys.
 */
public final class ConfigValues {

  private final RawConfig raw;
  private final List<String> violations;
  private final Set<String> failed = new HashSet<>();
  private final Map<String, ConfigSetting> settings = new LinkedHashMap<>();

  /**
   * @param raw the values read
   * @param violations where problems are added (the list {@code raw} reports to)
   */
  public ConfigValues(final RawConfig raw, final List<String> violations) {
    this.raw = Objects.requireNonNull(raw, "raw");
    this.violations = Objects.requireNonNull(violations, "violations");
  }

  /**
   * The key's value: as set (file or environment), else its default; {@code null} when neither
   * exists. A bad value is a violation, and its default is returned in its place.
   */
  public <T> T get(final ConfigKey<T> key) {
    final RawConfig.Raw set = raw.values().get(key.path());
    final RawConfig.Raw value =
        set != null || key.defaultValue() == null
            ? set
            : new RawConfig.Raw(key.defaultValue(), "default");
    if (value == null) {
      return null;
    }
    final T parsed = parse(key.path(), key.parser(), value, key.secret());
    return parsed != null ? parsed : fallback(key);
  }

  /**
   * Parses one raw value (of a key or a group entry at {@code path}) and records it as a setting.
   *
   * @return the value, or {@code null} after adding a violation (and marking {@code path} failed)
   */
  public <T> T parse(
      final String path,
      final ValueParser<T> parser,
      final RawConfig.Raw value,
      final boolean secret) {
    try {
      final T parsed = parser.parse(value.text());
      final String shown = secret ? ConfigSetting.REDACTED : value.text();
      settings.put(path, new ConfigSetting(path, shown, value.source()));
      return parsed;
    } catch (final ConfigValueException e) {
      failed.add(path);
      violations.add(
          "Expected "
              + path
              + " to be "
              + e.rule()
              + ", but was "
              + (secret ? "a value that is not shown (secret)" : e.actual())
              + " ("
              + value.source()
              + "; environment variable "
              + ConfigKey.envName(path)
              + ")");
      return null;
    }
  }

  private static <T> T fallback(final ConfigKey<T> key) {
    if (key.defaultValue() == null) {
      return null;
    }
    try {
      return key.parser().parse(key.defaultValue());
    } catch (final ConfigValueException e) {
      throw new IllegalStateException("Expected a valid default for " + key.path(), e);
    }
  }

  /** Whether none of {@code keys} failed to parse. */
  public boolean allValid(final ConfigKey<?>... keys) {
    for (final ConfigKey<?> key : keys) {
      if (failed.contains(key.path())) {
        return false;
      }
    }
    return true;
  }

  /** Whether the value at {@code path} (a key, an entry, or a path marked) failed. */
  public boolean isFailed(final String path) {
    return failed.contains(path);
  }

  /** Marks {@code path} as failed, e.g. a group with a bad entry. */
  public void markFailed(final String path) {
    failed.add(path);
  }

  /** Adds a violation (a rule across keys). */
  public void violation(final String message) {
    violations.add(message);
  }

  /** Where the key's value came from: its raw source, or {@code default}. */
  public String sourceOf(final ConfigKey<?> key) {
    final RawConfig.Raw value = raw.values().get(key.path());
    return value == null ? "default" : value.source();
  }

  /** Records a setting that was not read through {@link #get} or {@link #parse}. */
  public void putSetting(final ConfigSetting setting) {
    settings.put(setting.path(), setting);
  }

  /**
   * Every setting, in the catalogue's key order; a group's entries follow the last key of the
   * group's parent section (or come last). A URL's user info is redacted.
   */
  public List<ConfigSetting> settings() {
    final ConfigCatalogue catalogue = raw.catalogue();
    final Map<String, List<ConfigGroup>> groupsAfter = new LinkedHashMap<>();
    final List<ConfigGroup> groupsLast = new ArrayList<>();
    for (final ConfigGroup group : catalogue.groups()) {
      final String anchor = anchorOf(catalogue, group);
      if (anchor == null) {
        groupsLast.add(group);
      } else {
        groupsAfter.computeIfAbsent(anchor, ignored -> new ArrayList<>()).add(group);
      }
    }
    final Map<String, ConfigSetting> left = new LinkedHashMap<>(settings);
    final List<ConfigSetting> ordered = new ArrayList<>();
    for (final ConfigKey<?> key : catalogue.keys()) {
      final ConfigSetting setting = left.remove(key.path());
      if (setting != null) {
        ordered.add(setting);
      }
      for (final ConfigGroup group : groupsAfter.getOrDefault(key.path(), List.of())) {
        takeGroup(group, left, ordered);
      }
    }
    groupsLast.forEach(group -> takeGroup(group, left, ordered));
    ordered.addAll(left.values());
    return ordered.stream().map(ConfigValues::redact).toList();
  }

  private static String anchorOf(final ConfigCatalogue catalogue, final ConfigGroup group) {
    final int dot = group.path().lastIndexOf('.');
    if (dot < 0) {
      return null;
    }
    final String parent = group.path().substring(0, dot + 1);
    String anchor = null;
    for (final ConfigKey<?> key : catalogue.keys()) {
      if (key.path().startsWith(parent)) {
        anchor = key.path();
      }
    }
    return anchor;
  }

  private static void takeGroup(
      final ConfigGroup group,
      final Map<String, ConfigSetting> left,
      final List<ConfigSetting> ordered) {
    final String prefix = group.path() + ".";
    left.entrySet()
        .removeIf(
            entry -> {
              if (entry.getKey().startsWith(prefix)) {
                ordered.add(entry.getValue());
                return true;
              }
              return false;
            });
  }

  /** A URL with user info (credentials) shows only its host. */
  private static ConfigSetting redact(final ConfigSetting setting) {
    final String value = setting.value();
    final int scheme = value.indexOf("://");
    final int at = value.indexOf('@');
    if (scheme > 0 && at > scheme) {
      return new ConfigSetting(
          setting.path(),
          value.substring(0, scheme + 3) + ConfigSetting.REDACTED + value.substring(at),
          setting.source());
    }
    return setting;
  }
}
