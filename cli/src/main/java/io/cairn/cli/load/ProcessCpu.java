package io.cairn.cli.load;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * CPU time this JVM has used so far, every thread together (the sender, gRPC and netty threads, the
 * garbage collector and the JIT compiler): what running the load generator itself costs.
 */
final class ProcessCpu {
  private ProcessCpu() {}

  /** Nanoseconds of CPU time used by this process so far, or -1 where the JVM cannot tell. */
  static long nanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean hotspot) {
      return hotspot.getProcessCpuTime();
    }
    return -1;
  }
}
