package io.cairn.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
  public ConfigValues(RawConfig raw, List<String> violations) {
    this.raw = Objects.requireNonNull(raw, "raw");
    this.violations = Objects.requireNonNull(violations, "violations");
  }

  /**
   * The key's value: as set (file or environment), else its default; {@code null} when neither
   * exists. A bad value is a violation, and its default is returned in its place.
   */
  public <T> T get(ConfigKey<T> key) {
    RawConfig.Raw set = raw.values().get(key.path());
    RawConfig.Raw value =
        set != null || key.defaultValue() == null
            ? set
            : new RawConfig.Raw(key.defaultValue(), "default");
    if (value == null) {
      return null;
    }
    T parsed = parse(key.path(), key.parser(), value, key.secret());
    return parsed != null ? parsed : fallback(key);
  }

  /**
   * Parses one raw value (of a key or a group entry at {@code path}) and records it as a setting.
   *
   * @return the value, or {@code null} after adding a violation (and marking {@code path} failed)
   */
  public <T> T parse(String path, ValueParser<T> parser, RawConfig.Raw value, boolean secret) {
    try {
      T parsed = parser.parse(value.text());
      String shown = secret ? ConfigSetting.REDACTED : value.text();
      settings.put(path, new ConfigSetting(path, shown, value.source()));
      return parsed;
    } catch (ConfigValueException e) {
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

  private static <T> T fallback(ConfigKey<T> key) {
    if (key.defaultValue() == null) {
      return null;
    }
    try {
      return key.parser().parse(key.defaultValue());
    } catch (ConfigValueException e) {
      throw new IllegalStateException("Expected a valid default for " + key.path(), e);
    }
  }

  /** Whether none of {@code keys} failed to parse. */
  public boolean allValid(ConfigKey<?>... keys) {
    for (ConfigKey<?> key : keys) {
      if (failed.contains(key.path())) {
        return false;
      }
    }
    return true;
  }

  /** Whether the value at {@code path} (a key, an entry, or a path marked) failed. */
  public boolean isFailed(String path) {
    return failed.contains(path);
  }

  /** Marks {@code path} as failed, e.g. a group with a bad entry. */
  public void markFailed(String path) {
    failed.add(path);
  }

  /**
   * The values of {@code keys}, which are all required while {@code switchKey} is true: empty when
   * it is false or when one of them is missing (each missing one is a violation naming the key and
   * its environment variable) or failed.
   */
  public Optional<List<String>> requiredWhen(
      ConfigKey<Boolean> switchKey, List<ConfigKey<String>> keys) {
    if (!Boolean.TRUE.equals(get(switchKey))) {
      return Optional.empty();
    }
    List<String> present = new ArrayList<>();
    for (ConfigKey<String> key : keys) {
      String value = get(key);
      if (value != null) {
        present.add(value);
      } else if (!isFailed(key.path())) {
        violation(
            "Expected "
                + key.path()
                + " to be set when "
                + switchKey.path()
                + " is true, but it is not set (environment variable "
                + key.envName()
                + ")");
      }
    }
    return present.size() == keys.size() ? Optional.of(present) : Optional.empty();
  }

  /** Adds a violation (a rule across keys). */
  public void violation(String message) {
    violations.add(message);
  }

  /** Where the key's value came from: its raw source, or {@code default}. */
  public String sourceOf(ConfigKey<?> key) {
    RawConfig.Raw value = raw.values().get(key.path());
    return value == null ? "default" : value.source();
  }

  /** Records a setting that was not read through {@link #get} or {@link #parse}. */
  public void putSetting(ConfigSetting setting) {
    settings.put(setting.path(), setting);
  }

  /**
   * Every setting, in the catalogue's key order; a group's entries follow the last key of the
   * group's parent section (or come last). A URL's user info is redacted.
   */
  public List<ConfigSetting> settings() {
    ConfigCatalogue catalogue = raw.catalogue();
    Map<String, List<ConfigGroup>> groupsAfter = new LinkedHashMap<>();
    List<ConfigGroup> groupsLast = new ArrayList<>();
    for (ConfigGroup group : catalogue.groups()) {
      String anchor = anchorOf(catalogue, group);
      if (anchor == null) {
        groupsLast.add(group);
      } else {
        groupsAfter.computeIfAbsent(anchor, ignored -> new ArrayList<>()).add(group);
      }
    }
    Map<String, ConfigSetting> left = new LinkedHashMap<>(settings);
    List<ConfigSetting> ordered = new ArrayList<>();
    for (ConfigKey<?> key : catalogue.keys()) {
      ConfigSetting setting = left.remove(key.path());
      if (setting != null) {
        ordered.add(setting);
      }
      for (ConfigGroup group : groupsAfter.getOrDefault(key.path(), List.of())) {
        takeGroup(group, left, ordered);
      }
    }
    groupsLast.forEach(group -> takeGroup(group, left, ordered));
    ordered.addAll(left.values());
    return ordered.stream().map(ConfigValues::redact).toList();
  }

  private static String anchorOf(ConfigCatalogue catalogue, ConfigGroup group) {
    int dot = group.path().lastIndexOf('.');
    if (dot < 0) {
      return null;
    }
    String parent = group.path().substring(0, dot + 1);
    String anchor = null;
    for (ConfigKey<?> key : catalogue.keys()) {
      if (key.path().startsWith(parent)) {
        anchor = key.path();
      }
    }
    return anchor;
  }

  private static void takeGroup(
      ConfigGroup group, Map<String, ConfigSetting> left, List<ConfigSetting> ordered) {
    String prefix = group.path() + ".";
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
  private static ConfigSetting redact(ConfigSetting setting) {
    String value = setting.value();
    int scheme = value.indexOf("://");
    int at = value.indexOf('@');
    if (scheme > 0 && at > scheme) {
      return new ConfigSetting(
          setting.path(),
          value.substring(0, scheme + 3) + ConfigSetting.REDACTED + value.substring(at),
          setting.source());
    }
    return setting;
  }
}
