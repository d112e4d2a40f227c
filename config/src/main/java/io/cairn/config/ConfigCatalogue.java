package io.cairn.config;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Everything a configuration file may hold: its keys, its sections and its groups. {@link
 * RawConfig} rejects anything else and suggests the closest known name.
 *
 * @param keys every single-valued key, in file order (the order of the logged settings)
 * @param sections the top-level sections; an environment variable {@code CAIRN_<SECTION>_...} that
 *     names no key is an error, other {@code CAIRN_*} variables are ignored
 * @param groups the map-valued keys
 */
public record ConfigCatalogue(
    List<ConfigKey<?>> keys, Set<String> sections, List<ConfigGroup> groups) {

  public ConfigCatalogue {
    keys = List.copyOf(keys);
    sections = Set.copyOf(sections);
    groups = List.copyOf(groups);
  }

  /** The key at {@code path}, if any. */
  public Optional<ConfigKey<?>> key(String path) {
    return keys.stream().filter(key -> key.path().equals(path)).findFirst();
  }

  /** The group at {@code path}, if any. */
  public Optional<ConfigGroup> group(String path) {
    return groups.stream().filter(group -> group.path().equals(path)).findFirst();
  }

  /** Whether {@code path} is a key. */
  public boolean isKey(String path) {
    return key(path).isPresent();
  }

  /** Whether {@code path} is a section: a top-level section or a prefix of a key or group. */
  public boolean isSection(String path) {
    if (sections.contains(path)) {
      return true;
    }
    String prefix = path + ".";
    return keys.stream().anyMatch(key -> key.path().startsWith(prefix))
        || groups.stream().anyMatch(group -> group.path().startsWith(prefix));
  }
}
