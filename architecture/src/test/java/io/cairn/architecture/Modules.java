package io.cairn.architecture;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The module table: every Maven module, the package its main classes live in, and the project
 * modules it may depend on.
 *
 * <p><b>The source is docs/DESIGN.md §2</b> ("Modules"); this is its copy in code. Change §2 and
 * the module's pom first, then this table: {@link ModuleDependencyTest} fails while the three
 * disagree (the table's rows against §2's rows, each module's allowed set against §2's "depends on"
 * column and against the project modules its pom declares outside test scope).
 */
final class Modules {

  /** A module: its folder name, the root package of its main classes, and what it may use. */
  record Module(String name, Optional<String> rootPackage, Set<String> allowed) {}

  /** Module → allowed modules, in §2's order. */
  private static final Map<String, Set<String>> ALLOWED = new LinkedHashMap<>();

  /** Root packages that do not follow {@code io.cairn.<folder without dashes>}. */
  private static final Map<String, Optional<String>> PACKAGES =
      Map.of(
          // generated from the .proto files (option java_package), inside gateway's package tree
          "gateway-api", Optional.of("io.cairn.gateway.v1"),
          // no classes: the packaged distribution
          "dist", Optional.empty(),
          // no main classes: these tests
          "architecture", Optional.empty(),
          // no main classes: fuzz tests
          "fuzz", Optional.empty());

  static {
    allow("scheduler");
    allow("units");
    allow("tls");
    allow("files");
    allow("pacing", "scheduler");
    allow("config", "units");
    allow("auth", "scheduler");
    allow("http-endpoints", "scheduler");
    allow("protocol");
    allow("transport", "scheduler");
    allow("journal");
    allow("raft", "journal", "transport", "scheduler");
    allow("logstreams", "raft", "journal", "protocol", "scheduler");
    allow("db");
    allow("stream-processor", "logstreams", "db", "protocol", "scheduler");
    allow("engine", "stream-processor", "logstreams", "db", "protocol", "scheduler");
    allow("snapshot", "db", "files", "scheduler");
    allow("backup-api");
    allow("backup-store", "backup-api", "files", "scheduler");
    allow("backup-testkit", "backup-api", "backup-store", "scheduler");
    allow(
        "backup",
        "backup-api",
        "snapshot",
        "journal",
        "stream-processor",
        "logstreams",
        "db",
        "protocol",
        "scheduler",
        "pacing",
        "files");
    allow("backup-fs", "backup-api", "backup-store", "files", "pacing", "scheduler");
    allow("backup-s3", "backup-api", "backup-store", "units", "scheduler", "pacing", "files");
    allow(
        "restore",
        "backup-api",
        "backup",
        "snapshot",
        "journal",
        "raft",
        "logstreams",
        "stream-processor",
        "engine",
        "db",
        "protocol",
        "scheduler",
        "files");
    allow("exporter", "protocol", "config");
    allow(
        "broker",
        "raft",
        "logstreams",
        "stream-processor",
        "engine",
        "snapshot",
        "backup",
        "backup-api",
        "backup-store",
        "backup-fs",
        "backup-s3",
        "restore",
        "exporter",
        "db",
        "journal",
        "transport",
        "protocol",
        "config",
        "units",
        "scheduler",
        "pacing",
        "files",
        "http-endpoints",
        "tls");
    allow("gateway-api");
    allow(
        "gateway",
        "gateway-api",
        "transport",
        "protocol",
        "backup-api",
        "config",
        "units",
        "scheduler",
        "http-endpoints",
        "tls",
        "auth");
    allow("client", "gateway-api", "tls");
    allow(
        "cli",
        "client",
        "broker",
        "gateway",
        "restore",
        "backup",
        "backup-api",
        "backup-fs",
        "backup-s3",
        "transport",
        "config",
        "units",
        "scheduler",
        "tls",
        "auth");
    allow("dist", "broker", "gateway", "cli");
    allow(
        "qa",
        "broker",
        "gateway",
        "gateway-api",
        "client",
        "transport",
        "protocol",
        "scheduler",
        "files",
        "tls",
        "auth");
    allow("fuzz");
    allow(
        "benchmarks",
        "broker",
        "cli",
        "client",
        "restore",
        "backup",
        "backup-api",
        "backup-store",
        "backup-fs",
        "backup-s3",
        "engine",
        "stream-processor",
        "logstreams",
        "raft",
        "snapshot",
        "db",
        "journal",
        "transport",
        "protocol",
        "units",
        "scheduler");
    allow("architecture");
  }

  private Modules() {}

  private static void allow(String module, String... allowed) {
    if (ALLOWED.put(module, Set.of(allowed)) != null) {
      throw new IllegalStateException("Module " + module + " is in the table twice");
    }
  }

  /** Every module of the table, in §2's order. */
  static List<Module> all() {
    return ALLOWED.entrySet().stream()
        .map(e -> new Module(e.getKey(), rootPackage(e.getKey()), e.getValue()))
        .toList();
  }

  static Module named(String name) {
    return all().stream()
        .filter(m -> m.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("No module " + name + " in the table"));
  }

  private static Optional<String> rootPackage(String module) {
    return PACKAGES.getOrDefault(module, Optional.of("io.cairn." + module.replace("-", "")));
  }

  /**
   * The module whose package tree holds {@code packageName}: the one with the longest root package
   * that is the package or a parent of it ({@code io.cairn.gateway.v1} is gateway-api's, the rest
   * of {@code io.cairn.gateway} gateway's); empty outside every module.
   */
  static Optional<Module> owning(String packageName) {
    Module best = null;
    for (Module module : all()) {
      if (module.rootPackage().isEmpty()) {
        continue;
      }
      String root = module.rootPackage().get();
      if ((packageName.equals(root) || packageName.startsWith(root + "."))
          && (best == null || root.length() > best.rootPackage().get().length())) {
        best = module;
      }
    }
    return Optional.ofNullable(best);
  }
}
