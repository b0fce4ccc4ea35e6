package io.tern.benchmark.machine;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How much CPU other processes used while the benchmark ran, from Linux's {@code /proc/stat} minus
 * this process's own CPU time. On a small machine another busy process (a build, a test run) skews
 * every figure, so the report says how busy the machine was instead of leaving readers to guess.
 */
public final class MachineLoad {
  /** Linux reports /proc/stat in USER_HZ ticks, 100 per second on every mainstream platform. */
  private static final double TICKS_PER_S = 100;

  private final long busyTicks;
  private final long stealTicks;
  private final long ownCpuNs;
  private final long wallNs;

  private MachineLoad(long busyTicks, long stealTicks, long ownCpuNs, long wallNs) {
    this.busyTicks = busyTicks;
    this.stealTicks = stealTicks;
    this.ownCpuNs = ownCpuNs;
    this.wallNs = wallNs;
  }

  /** A snapshot, or null where /proc/stat or the process CPU time is not available. */
  public static MachineLoad snapshot() {
    try {
      String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      // cpu user nice system idle iowait irq softirq steal ...
      long busy =
          Long.parseLong(cpu[1])
              + Long.parseLong(cpu[2])
              + Long.parseLong(cpu[3])
              + Long.parseLong(cpu[6])
              + Long.parseLong(cpu[7]);
      long steal = cpu.length > 8 ? Long.parseLong(cpu[8]) : 0;
      if (!(ManagementFactory.getOperatingSystemMXBean()
          instanceof com.sun.management.OperatingSystemMXBean os)) {
        return null;
      }
      long ownCpuNs = os.getProcessCpuTime();
      return ownCpuNs < 0 ? null : new MachineLoad(busy, steal, ownCpuNs, System.nanoTime());
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Average number of cores that other processes kept busy since {@code start} (0 on a quiet
   * machine), or NaN when unknown.
   */
  public static double otherProcessesCores(MachineLoad start, MachineLoad end) {
    if (start == null || end == null) {
      return Double.NaN;
    }
    double seconds = (end.wallNs - start.wallNs) / 1e9;
    double busyS = (end.busyTicks - start.busyTicks) / TICKS_PER_S;
    double ownS = (end.ownCpuNs - start.ownCpuNs) / 1e9;
    return Math.max(0, busyS - ownS) / seconds;
  }

  /** Average number of cores the hypervisor gave to others (steal time), or NaN when unknown. */
  public static double stealCores(MachineLoad start, MachineLoad end) {
    if (start == null || end == null) {
      return Double.NaN;
    }
    double seconds = (end.wallNs - start.wallNs) / 1e9;
    return (end.stealTicks - start.stealTicks) / TICKS_PER_S / seconds;
  }
}
