package io.tern.benchmark.raft;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;

/**
 * CPU time used and heap bytes allocated by this process, all threads, where the JVM reports them.
 */
final class ProcessCpu {
  private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private ProcessCpu() {}

  /** Nanoseconds of CPU since the process started, or -1 if this JVM cannot tell. */
  static long nanos() {
    if (OS instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  /**
   * Heap bytes allocated by every thread since the process started, those that ended included, or
   * -1 if this JVM cannot tell. The measure of the hot paths' garbage: the young collections it
   * causes pause every thread.
   */
  static long allocatedBytes() {
    if (THREADS instanceof com.sun.management.ThreadMXBean threads
        && threads.isThreadAllocatedMemorySupported()
        && threads.isThreadAllocatedMemoryEnabled()) {
      return threads.getTotalThreadAllocatedBytes();
    }
    return -1;
  }
}
