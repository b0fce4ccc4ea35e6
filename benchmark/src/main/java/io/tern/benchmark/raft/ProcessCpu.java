package io.tern.benchmark.raft;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/** CPU time used by this process, all threads, where the JVM reports it. */
final class ProcessCpu {
  private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();

  private ProcessCpu() {}

  /** Nanoseconds of CPU since the process started, or -1 if this JVM cannot tell. */
  static long nanos() {
    if (OS instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }
}
