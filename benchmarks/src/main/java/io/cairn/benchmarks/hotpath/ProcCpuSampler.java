package io.cairn.benchmarks.hotpath;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * CPU time of groups of processes from {@code /proc/<pid>/stat}: {@code utime + stime} (fields 14
 * and 15, every thread of the process, in clock ticks of {@code getconf CLK_TCK}). A step reads a
 * {@link #sample()} at its start and end; {@link #secondsBetween} gives each group's CPU seconds in
 * between. A process that is gone counts with its last reading (its CPU after that is lost).
 */
final class ProcCpuSampler {

  /** Linux's {@code USER_HZ} on every architecture the benchmark runs on. */
  static final long DEFAULT_TICKS_PER_SECOND = 100;

  private final Map<String, List<Long>> groups;
  private final long ticksPerSecond;
  private final Map<Long, Long> lastTicks = new LinkedHashMap<>();

  /**
   * @param groups process group name (brokers, gateway, etcd, ...) → pids, in report order
   */
  ProcCpuSampler(Map<String, List<Long>> groups, long ticksPerSecond) {
    this.groups = new LinkedHashMap<>(groups);
    this.ticksPerSecond = ticksPerSecond;
  }

  /** CPU ticks of each group now. */
  synchronized Map<String, Long> sample() {
    Map<String, Long> ticks = new LinkedHashMap<>();
    groups.forEach(
        (group, pids) -> {
          long sum = 0;
          for (long pid : pids) {
            OptionalLong now = read(pid);
            if (now.isPresent()) {
              lastTicks.put(pid, now.getAsLong());
            }
            sum += lastTicks.getOrDefault(pid, 0L);
          }
          ticks.put(group, sum);
        });
    return ticks;
  }

  /** CPU seconds of each group between two samples. */
  Map<String, Double> secondsBetween(Map<String, Long> start, Map<String, Long> end) {
    Map<String, Double> seconds = new LinkedHashMap<>();
    end.forEach(
        (group, ticks) ->
            seconds.put(group, (ticks - start.getOrDefault(group, 0L)) / (double) ticksPerSecond));
    return seconds;
  }

  /** {@code utime + stime} of {@code pid} in ticks; empty when the process is gone. */
  static OptionalLong read(long pid) {
    try {
      return OptionalLong.of(
          parseStat(
              Files.readString(
                  Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII)));
    } catch (IOException e) {
      return OptionalLong.empty(); // the process ended while it was read
    }
  }

  /**
   * {@code utime + stime} from one {@code /proc/<pid>/stat} line. The command name (field 2) is in
   * parentheses and may hold spaces and parentheses itself, so fields are counted after the last
   * {@code ')'}: state is field 3, utime 14, stime 15.
   *
   * @throws IllegalArgumentException if the line does not have these fields
   */
  static long parseStat(String line) {
    int close = line.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException(
          "Expected a /proc/<pid>/stat line with '(comm)', but was '" + line.strip() + "'");
    }
    String[] fields = line.substring(close + 1).trim().split("\\s+");
    // fields[0] is field 3 (state), so field n is fields[n - 3]
    if (fields.length < 13) {
      throw new IllegalArgumentException(
          "Expected at least 15 fields in a /proc/<pid>/stat line, but found "
              + (fields.length + 2)
              + " in '"
              + line.strip()
              + "'");
    }
    try {
      return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Expected numbers as utime and stime (fields 14 and 15), but were '"
              + fields[11]
              + "' and '"
              + fields[12]
              + "' in '"
              + line.strip()
              + "'",
          e);
    }
  }

  /** {@code getconf CLK_TCK}, or {@value #DEFAULT_TICKS_PER_SECOND} when it cannot be run. */
  static long ticksPerSecond() {
    try {
      Process process = new ProcessBuilder("getconf", "CLK_TCK").start();
      String out =
          new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
      if (process.waitFor() == 0) {
        return Long.parseLong(out);
      }
    } catch (IOException | NumberFormatException e) {
      // fall through to the default
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return DEFAULT_TICKS_PER_SECOND;
  }
}
