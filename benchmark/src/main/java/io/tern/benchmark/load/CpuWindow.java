package io.tern.benchmark.load;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU the benchmark's processes (this one, with the client and any in-process broker, and each
 * local broker process) used over the measured window, and how much of it went to the JIT
 * compilers. CPU per instance tells two configurations apart even where throughput does not (a
 * shared or noisy machine). The JIT share tells whether the warmup was long enough: on two cores,
 * C2 compiling in the measured window takes cycles from the workload, and a configuration that
 * loads more classes (TLS, token checks) compiles for longer, so its figures look worse than its
 * steady state.
 *
 * <p>Read from {@code /proc} (Linux): elsewhere, it reports nothing.
 */
final class CpuWindow {
  /** The kernel's clock ticks per second in {@code /proc/<pid>/stat} (USER_HZ, 100 on Linux). */
  private static final double TICKS_PER_SECOND = 100;

  /** The JIT's compiler threads, by the names HotSpot gives them (truncated to 15 characters). */
  private static final List<String> JIT_THREADS = List.of("C1 CompilerThre", "C2 CompilerThre");

  /** Above this share of the window's CPU, the warmup was too short for a fair comparison. */
  static final double JIT_SHARE_WARNING = 0.05;

  private final Map<String, Long> pids;
  private Ticks[] start;

  /**
   * @param pids the processes to follow, by the name they are reported under
   */
  CpuWindow(Map<String, Long> pids) {
    this.pids = new LinkedHashMap<>(pids);
  }

  /** The processes of this benchmark: this one, and the local brokers' if there are any. */
  static CpuWindow of(List<Long> brokerPids) {
    Map<String, Long> pids = new LinkedHashMap<>();
    pids.put("benchmark", ProcessHandle.current().pid());
    for (int node = 0; node < brokerPids.size(); node++) {
      pids.put("broker-" + node, brokerPids.get(node));
    }
    return new CpuWindow(pids);
  }

  void open() {
    start = read();
  }

  /**
   * The window's figures: CPU seconds per process, in all, its JIT share, and the CPU per completed
   * instance; empty where {@code /proc} cannot be read or the window was not opened.
   */
  Map<String, Object> close(long completedInstances) {
    Ticks[] end = read();
    Map<String, Object> figures = new LinkedHashMap<>();
    if (start == null || end == null) {
      return figures;
    }
    Map<String, Object> byProcess = new LinkedHashMap<>();
    long total = 0;
    long jit = 0;
    int index = 0;
    for (String name : pids.keySet()) {
      long all = end[index].all - start[index].all;
      total += all;
      jit += end[index].jit - start[index].jit;
      byProcess.put(name, all / TICKS_PER_SECOND);
      index++;
    }
    figures.put("seconds", total / TICKS_PER_SECOND);
    figures.put("byProcessSeconds", byProcess);
    figures.put("jitSeconds", jit / TICKS_PER_SECOND);
    figures.put("jitShare", total == 0 ? 0.0 : (double) jit / total);
    figures.put(
        "msPerInstance",
        completedInstances == 0 ? 0.0 : total * 1000 / TICKS_PER_SECOND / completedInstances);
    return figures;
  }

  private Ticks[] read() {
    Ticks[] ticks = new Ticks[pids.size()];
    int index = 0;
    try {
      for (long pid : pids.values()) {
        ticks[index++] = ticks(Path.of("/proc", Long.toString(pid)));
      }
      return ticks;
    } catch (IOException | RuntimeException e) {
      return null; // not Linux, or a broker gone: no figures rather than wrong ones
    }
  }

  /** A process's CPU ticks (user + system) in all and in its JIT threads. */
  private static Ticks ticks(Path process) throws IOException {
    long all = cpuTicks(Files.readString(process.resolve("stat")));
    long jit = 0;
    List<Path> tasks = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(process.resolve("task"))) {
      stream.forEach(tasks::add);
    }
    for (Path task : tasks) {
      String stat;
      try {
        stat = Files.readString(task.resolve("stat"));
      } catch (IOException e) {
        continue; // the thread ended between the listing and the read
      }
      if (JIT_THREADS.contains(name(stat))) {
        jit += cpuTicks(stat);
      }
    }
    return new Ticks(all, jit);
  }

  /** The name between the first '(' and the last ')': it may hold spaces and parentheses. */
  static String name(String stat) {
    return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  }

  /** utime + stime: fields 14 and 15 of proc(5), the 12th and 13th after the name. */
  static long cpuTicks(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" +");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  private record Ticks(long all, long jit) {}
}
