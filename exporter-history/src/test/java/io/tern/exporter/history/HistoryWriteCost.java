package io.tern.exporter.history;

import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.intent.JobIntent;
import io.camunda.zeebe.protocol.record.intent.ProcessInstanceIntent;
import io.camunda.zeebe.protocol.record.value.BpmnElementType;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the history store costs its exporter thread per process instance: the records of the load
 * benchmark's workload (one service task, a variable at the start, created with result) for {@code
 * N} instances, 16 in flight as the load keeps them, exported into an H2 file (or the JDBC URL
 * given), and the process's CPU time per instance (the exporter's thread, H2's background writer,
 * the collector). A benchmark, not a test: run it with the module's test class path, e.g.
 *
 * <pre>
 * ./mvnw -q -pl exporter-history test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -cp exporter-history/target/test-classes:exporter-history/target/classes:$(cat exporter-history/target/cp.txt) \
 *   io.tern.exporter.history.HistoryWriteCost 20000 3
 * </pre>
 *
 * <p>Arguments: instances per round (default 20000), rounds (default 3), a JDBC URL ({@code -} or
 * none for the default: an H2 file in a temporary directory, as the broker's default store; {@code
 * ;OPTION=...} appends options to that file's URL; {@code {round}} in a URL is replaced by the
 * round's number, so that every round writes a new store), then any of the exporter's args as
 * {@code name=value} ({@code batchSize=2000}). Each round is a new store; the first round warms the
 * JIT and is printed but left out of the median.
 */
final class HistoryWriteCost {
  private static final int IN_FLIGHT = 16;
  private static final String THREAD = "test-exporter-director";

  public static void main(String[] args) throws Exception {
    int instances = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    String url = args.length > 2 && !args[2].equals("-") ? args[2] : null;
    Map<String, Object> extraArgs = new java.util.HashMap<>();
    for (int i = 3; i < args.length; i++) {
      String[] setting = args[i].split("=", 2);
      extraArgs.put(
          setting[0], setting[1].matches("\\d+") ? Integer.valueOf(setting[1]) : setting[1]);
    }
    List<Double> microsPerInstance = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      Path dir = Files.createTempDirectory("history-write-cost");
      String file = "jdbc:h2:file:" + dir.resolve("history").toAbsolutePath();
      String storeUrl =
          url == null
              ? file
              : url.startsWith(";") ? file + url : url.replace("{round}", "" + round);
      TestRecords records = new TestRecords(1, Instant.parse("2026-12-07T10:00:00Z"));
      List<Record<?>> log = workload(records, instances);
      try (TestDirector director =
          new TestDirector(
              1,
              storeArgs(storeUrl, extraArgs),
              new SimpleMeterRegistry(),
              InstantSource.system())) {
        director.start();
        long cpuBefore = directorCpuNanos();
        long processBefore = processCpuNanos();
        long started = System.nanoTime();
        for (Record<?> record : log) {
          director.export(record);
        }
        director.flush();
        long wallNanos = System.nanoTime() - started;
        long cpuNanos = directorCpuNanos() - cpuBefore;
        long processNanos = processCpuNanos() - processBefore;
        double perInstance = processNanos / 1000.0 / instances;
        System.out.printf(
            "round %d: %,d instances, %,d records; CPU per instance: %.1f us of the process"
                + " (%.1f us on the exporter's thread); wall %.2f s%n",
            round,
            instances,
            log.size(),
            perInstance,
            cpuNanos / 1000.0 / instances,
            wallNanos / 1e9);
        if (round > 1 || rounds == 1) {
          microsPerInstance.add(perInstance);
        }
        if (Boolean.getBoolean("threads")) {
          printThreads();
        }
      }
    }
    List<Double> sorted = microsPerInstance.stream().sorted().toList();
    System.out.printf(
        "FIGURE history store: %.1f us of CPU per instance (median of %d rounds)%n",
        sorted.get(sorted.size() / 2), sorted.size());
  }

  /**
   * The records as a broker's log holds them for the load workload: {@link #IN_FLIGHT} instances at
   * a time, each step of theirs one after another (so the records of instances alive together
   * interleave, as they do under load).
   */
  private static List<Record<?>> workload(TestRecords records, int instances) {
    List<Record<?>> log = new ArrayList<>(instances * 24);
    log.add(records.deployment());
    for (int first = 0; first < instances; first += IN_FLIGHT) {
      int wave = Math.min(IN_FLIGHT, instances - first);
      long[] instance = new long[wave];
      long[] task = new long[wave];
      long[] job = new long[wave];
      for (int i = 0; i < wave; i++) {
        instance[i] = records.nextKey();
        task[i] = records.nextKey();
        job[i] = records.nextKey();
        log.add(records.process(ProcessInstanceIntent.ELEMENT_ACTIVATING, instance[i]));
        log.add(records.process(ProcessInstanceIntent.ELEMENT_ACTIVATED, instance[i]));
        log.add(
            records.variable(
                io.camunda.zeebe.protocol.record.intent.VariableIntent.CREATED,
                instance[i],
                instance[i],
                "orderId",
                "\"A-" + (first + i) + "\""));
        log.addAll(records.elementPassing(instance[i], "start", BpmnElementType.START_EVENT));
        log.add(
            serviceTask(records, ProcessInstanceIntent.ELEMENT_ACTIVATING, task[i], instance[i]));
        log.add(
            serviceTask(records, ProcessInstanceIntent.ELEMENT_ACTIVATED, task[i], instance[i]));
        log.add(
            records.job(
                JobIntent.CREATED, job[i], records.jobValue(instance[i], task[i], 3, "", "")));
      }
      for (int i = 0; i < wave; i++) {
        log.add(
            records.jobsActivated(job[i], records.jobValue(instance[i], task[i], 3, "load", "")));
      }
      for (int i = 0; i < wave; i++) {
        log.add(
            records.job(
                JobIntent.COMPLETED,
                job[i],
                records.jobValue(instance[i], task[i], 3, "load", "")));
        log.add(
            serviceTask(records, ProcessInstanceIntent.ELEMENT_COMPLETING, task[i], instance[i]));
        log.add(
            serviceTask(records, ProcessInstanceIntent.ELEMENT_COMPLETED, task[i], instance[i]));
        log.addAll(records.elementPassing(instance[i], "end", BpmnElementType.END_EVENT));
        log.add(records.process(ProcessInstanceIntent.ELEMENT_COMPLETING, instance[i]));
        log.add(records.process(ProcessInstanceIntent.ELEMENT_COMPLETED, instance[i]));
      }
    }
    return log;
  }

  private static Record<?> serviceTask(
      TestRecords records, ProcessInstanceIntent intent, long taskKey, long instanceKey) {
    return records.element(
        intent, taskKey, instanceKey, "ship", BpmnElementType.SERVICE_TASK, instanceKey);
  }

  private static Map<String, Object> storeArgs(String url, Map<String, Object> extra) {
    Map<String, Object> storeArgs = new java.util.HashMap<>(extra);
    storeArgs.put("url", url);
    return storeArgs;
  }

  /**
   * With -Dthreads=true: the process's busiest threads so far (the JVM's own too), from /proc;
   * threads that ended (the stores of earlier rounds) are not counted.
   */
  private static void printThreads() throws java.io.IOException {
    Map<String, Long> ticks = new java.util.TreeMap<>();
    try (var tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : tasks.toList()) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (java.nio.file.NoSuchFileException ended) {
          continue;
        }
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long used = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        ticks.merge(name.replaceAll("\\d+", "#"), used, Long::sum);
      }
    }
    ticks.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(10)
        .forEach(e -> System.out.printf("  %-20s %6.1f s%n", e.getKey(), e.getValue() / 100.0));
  }

  /** The whole process: H2's background writer and the collector work for the exporter too. */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static long directorCpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().equals(THREAD)) {
        return threads.getThreadCpuTime(thread.getId());
      }
    }
    throw new IllegalStateException("no thread named " + THREAD);
  }

  private HistoryWriteCost() {}
}
