package io.tern.benchmark.machine;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;

/**
 * CPU time used and heap bytes allocated by this process, all threads, where the JVM reports them.
 */
public final class ProcessCpu {
  private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /**
   * {@code com.sun.management.ThreadMXBean.getTotalThreadAllocatedBytes()}, looked up at run time:
   * every JDK from 17 has it, but javac of JDK 25 compiling for release 17 does not know it (its
   * record of the release-17 API lacks the method), so a direct call would not build there.
   */
  private static final Method TOTAL_ALLOCATED_BYTES = totalAllocatedBytesMethod();

  private ProcessCpu() {}

  /** Nanoseconds of CPU since the process started, or -1 if this JVM cannot tell. */
  public static long nanos() {
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
  public static long allocatedBytes() {
    if (TOTAL_ALLOCATED_BYTES != null
        && THREADS instanceof com.sun.management.ThreadMXBean threads
        && threads.isThreadAllocatedMemorySupported()
        && threads.isThreadAllocatedMemoryEnabled()) {
      try {
        return (long) TOTAL_ALLOCATED_BYTES.invoke(threads);
      } catch (ReflectiveOperationException e) {
        return -1;
      }
    }
    return -1;
  }

  private static Method totalAllocatedBytesMethod() {
    try {
      return com.sun.management.ThreadMXBean.class.getMethod("getTotalThreadAllocatedBytes");
    } catch (NoSuchMethodException e) {
      return null;
    }
  }
}
