package io.tern.benchmark.scaling;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of another process, from {@code /proc/PID/stat} (user + system, the process's threads
 * together), so that a broker process's work per instance can be told from its peers'.
 */
final class ProcCpu {
  /** USER_HZ: the unit of utime and stime. 100 on every Linux the benchmarks run on. */
  private static final double TICKS_PER_SECOND = ticksPerSecond();

  private ProcCpu() {}

  /** Seconds of CPU process {@code pid} used so far; -1 where /proc cannot tell (not Linux). */
  static double seconds(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      // The command name (field 2) is in parentheses and may hold spaces: count after it.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // fields[0] is field 3 (state), so utime (14) and stime (15) are at 11 and 12.
      long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
      return ticks / TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Seconds of CPU the whole machine spent busy (all cores, not idle or iowait), or -1. */
  static double machineBusySeconds() {
    try {
      String cpu = Files.readAllLines(Path.of("/proc/stat")).get(0);
      String[] fields = cpu.trim().split("\\s+");
      long busy = 0;
      for (int i = 1; i < fields.length && i <= 8; i++) {
        if (i != 4 && i != 5) { // idle, iowait
          busy += Long.parseLong(fields[i]);
        }
      }
      return busy / TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static double ticksPerSecond() {
    try {
      Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(getconf.getInputStream().readAllBytes()).trim();
      getconf.waitFor();
      return Double.parseDouble(out);
    } catch (IOException | RuntimeException e) {
      return 100;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 100;
    }
  }
}
