package io.cairn.benchmarks.hotpath;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the figures depend on, recorded with them: processors, CPU model, kernel, Java, memory and
 * the load average (from {@code /proc}; "unknown" where it cannot be read).
 */
final class MachineFacts {

  private MachineFacts() {}

  static Map<String, Object> collect() {
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("nproc", Runtime.getRuntime().availableProcessors());
    facts.put("cpuModel", cpuModel());
    facts.put("kernel", read("/proc/sys/kernel/osrelease"));
    facts.put(
        "java",
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    facts.put("memTotal", memTotal());
    return facts;
  }

  private static String cpuModel() {
    return field("/proc/cpuinfo", "model name");
  }

  private static String memTotal() {
    return field("/proc/meminfo", "MemTotal");
  }

  private static String field(String file, String name) {
    return read(file)
        .lines()
        .filter(line -> line.startsWith(name))
        .map(line -> line.substring(line.indexOf(':') + 1).trim())
        .findFirst()
        .orElse("unknown");
  }

  private static String read(String file) {
    try {
      return Files.readString(Path.of(file)).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
