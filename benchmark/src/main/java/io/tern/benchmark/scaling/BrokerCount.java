package io.tern.benchmark.scaling;

import static io.tern.benchmark.scaling.ScalingBenchmark.median;
import static io.tern.benchmark.scaling.ScalingBenchmark.round;

import io.camunda.client.CamundaClient;
import io.tern.benchmark.common.Progress;
import io.tern.benchmark.load.ExperimentBenchmark;
import io.tern.benchmark.load.LoadDriver;
import io.tern.benchmark.load.LoadStats;
import io.tern.benchmark.load.LocalCluster;
import io.tern.benchmark.machine.ProcessCpu;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Target t3: 6 brokers sustain nearly twice what 3 do with 6 partitions. Brokers of one machine
 * share its cores, so on a small machine the cluster's throughput cannot double; what can be
 * measured is whether each broker does half the work per instance. Two clusters started fresh (3
 * and 6 brokers, the same partitions, replication 3, leaders on their primaries, a standalone
 * gateway so that no broker does the gateway's work) take the same open-loop rate; each broker
 * process's CPU (from /proc) over the measured window is divided by the instances completed in it.
 * Rounds alternate which cluster goes first.
 */
final class BrokerCount {
  /** "Nearly doubles": the throughput ratio the target asks for. */
  static final double TARGET_SPEEDUP = 1.8;

  private static final int ERRORS_SHOWN = 5;

  private BrokerCount() {}

  static Map<String, Object> measure(ScalingOptions.Settings settings, Path dir, Progress progress)
      throws Exception {
    List<Map<String, Object>> three = new ArrayList<>();
    List<Map<String, Object>> six = new ArrayList<>();
    for (int round = 1; round <= settings.rounds(); round++) {
      int[] order = round % 2 == 1 ? new int[] {3, 6} : new int[] {6, 3};
      for (int brokers : order) {
        progress.log(
            "t3 round %d/%d: %d brokers, %d partitions, %.0f PI/s",
            round, settings.rounds(), brokers, settings.t3Partitions(), settings.t3Rate());
        Map<String, Object> figures =
            cluster(settings, brokers, dir.resolve("round-" + round + "-" + brokers), progress);
        figures.put("round", round);
        (brokers == 3 ? three : six).add(figures);
        ScalingBenchmark.deleteData(dir);
      }
    }
    return summary(settings, three, six);
  }

  private static Map<String, Object> cluster(
      ScalingOptions.Settings settings, int brokers, Path dir, Progress progress) throws Exception {
    try (LocalCluster cluster =
        LocalCluster.start(
            brokers,
            settings.t3Partitions(),
            3,
            settings.flushMode(),
            settings.environment(),
            dir,
            progress)) {
      ExperimentBenchmark.onPrimaries(
          cluster.managementAddresses(), cluster.managementAuthorization(), brokers, progress);
      String gateway = cluster.startStandaloneGateway(progress);
      LoadStats stats = new LoadStats();
      AtomicInteger shown = new AtomicInteger();
      try (CamundaClient client = ScalingBenchmark.client(gateway);
          LoadDriver driver =
              new LoadDriver(
                  client,
                  new LoadDriver.Workload(
                      1, 0, true, true, 256, Duration.ZERO, Duration.ofSeconds(30)),
                  stats,
                  error -> {
                    if (shown.incrementAndGet() <= ERRORS_SHOWN) {
                      progress.log("%s", error);
                    }
                  })) {
        driver.start();
        long startNs = System.nanoTime();
        long measureFromNs = startNs + settings.warmup().toNanos();
        long endNs = measureFromNs + settings.t3Window().toNanos();
        Thread load = new Thread(() -> driver.openLoop(settings.t3Rate(), endNs), "t3-load");
        load.start();
        PerSecond perSecond =
            new PerSecond(stats, progress, now -> now < measureFromNs ? "warmup" : brokers + "b");
        double[] before;
        double[] after;
        double[] idleBefore;
        double[] idleAfter;
        long endedBefore;
        long sentBefore;
        long sentAfter;
        long endedAfter;
        try {
          ScalingBenchmark.hold(Duration.ofNanos(measureFromNs - System.nanoTime()));
          endedBefore = stats.endedSoFar();
          sentBefore = stats.sentSoFar();
          before = cpu(cluster, brokers);
          ScalingBenchmark.hold(Duration.ofNanos(endNs - System.nanoTime()));
          after = cpu(cluster, brokers);
          endedAfter = stats.endedSoFar();
          sentAfter = stats.sentSoFar();
        } finally {
          driver.stop();
          load.join();
          driver.awaitOutstanding(Duration.ofSeconds(40));
          perSecond.close();
        }
        // What the brokers spend without load (heartbeats, timers, the JVM's own threads), warm:
        // per instance it weighs more the more brokers share a load, and it is not the work the
        // instances cause.
        progress.log("t3: %d brokers idle for %d s", brokers, settings.warmup().toSeconds());
        idleBefore = cpu(cluster, brokers);
        ScalingBenchmark.hold(settings.warmup());
        idleAfter = cpu(cluster, brokers);
        double idleSeconds = settings.warmup().toNanos() / 1e9;
        double window = settings.t3Window().toNanos() / 1e9;
        double[] idle = new double[before.length];
        for (int i = 0; i < idle.length; i++) {
          idle[i] = (idleAfter[i] - idleBefore[i]) / idleSeconds * window;
        }
        Map<String, Object> figures =
            figures(settings, brokers, before, after, idle, endedAfter - endedBefore, stats);
        // Completions above what was sent in the window are a backlog from the warmup, whose CPU
        // went before the window: CPU per instance reads low then.
        figures.put("sentInWindow", sentAfter - sentBefore);
        return figures;
      }
    }
  }

  /**
   * CPU seconds so far: each broker, then the standalone gateway, this process (the client), and
   * the whole machine's busy time.
   */
  private static double[] cpu(LocalCluster cluster, int brokers) {
    double[] seconds = new double[brokers + 3];
    for (int node = 0; node < brokers; node++) {
      seconds[node] = ProcCpu.seconds(cluster.pid(node));
    }
    seconds[brokers] = ProcCpu.seconds(cluster.standaloneGatewayPid());
    seconds[brokers + 1] = ProcessCpu.nanos() / 1e9;
    seconds[brokers + 2] = ProcCpu.machineBusySeconds();
    return seconds;
  }

  private static Map<String, Object> figures(
      ScalingOptions.Settings settings,
      int brokers,
      double[] before,
      double[] after,
      double[] idle,
      long completed,
      LoadStats stats) {
    double window = settings.t3Window().toNanos() / 1e9;
    List<Double> perBrokerMs = new ArrayList<>();
    List<Double> netPerBrokerMs = new ArrayList<>();
    List<Double> idleCores = new ArrayList<>();
    double brokersMs = 0;
    double netBrokersMs = 0;
    for (int node = 0; node < brokers; node++) {
      double ms = (after[node] - before[node]) * 1000 / completed;
      double netMs = (after[node] - before[node] - idle[node]) * 1000 / completed;
      perBrokerMs.add(round(ms, 4));
      netPerBrokerMs.add(round(netMs, 4));
      idleCores.add(round(idle[node] / window, 4));
      brokersMs += ms;
      netBrokersMs += netMs;
    }
    double gatewayMs = (after[brokers] - before[brokers]) * 1000 / completed;
    double clientMs = (after[brokers + 1] - before[brokers + 1]) * 1000 / completed;
    double machineBusyCores = (after[brokers + 2] - before[brokers + 2]) / window;
    double allMs = brokersMs + gatewayMs + clientMs;
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("brokers", brokers);
    figures.put("completedInstances", completed);
    figures.put("piPerSecond", round(completed / window, 1));
    figures.put("failedInstances", stats.failedSoFar());
    figures.put("refusedInstances", stats.refusedSoFar());
    figures.put("cpuMsPerInstanceByBroker", perBrokerMs);
    figures.put("cpuMsPerInstancePerBrokerMean", round(brokersMs / brokers, 4));
    figures.put(
        "cpuMsPerInstancePerBrokerMax",
        perBrokerMs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN));
    figures.put("cpuMsPerInstanceAllBrokers", round(brokersMs, 4));
    figures.put("idleCoresByBroker", idleCores);
    figures.put("netCpuMsPerInstanceByBroker", netPerBrokerMs);
    figures.put("netCpuMsPerInstancePerBrokerMean", round(netBrokersMs / brokers, 4));
    figures.put(
        "netCpuMsPerInstancePerBrokerMax",
        netPerBrokerMs.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN));
    figures.put("netCpuMsPerInstanceAllBrokers", round(netBrokersMs, 4));
    figures.put("cpuMsPerInstanceGateway", round(gatewayMs, 4));
    figures.put("cpuMsPerInstanceClient", round(clientMs, 4));
    figures.put("machineBusyCores", round(machineBusyCores, 2));
    // Every process of the run shares this machine's cores: at best they all run flat out.
    figures.put(
        "machineCeilingPiPerSecond",
        round(Runtime.getRuntime().availableProcessors() * 1000 / allMs, 0));
    return figures;
  }

  private static double ratio(Map<String, Object> six, Map<String, Object> three, String key) {
    return (Double) six.get(key) / (Double) three.get(key);
  }

  private static Map<String, Object> summary(
      ScalingOptions.Settings settings,
      List<Map<String, Object>> three,
      List<Map<String, Object>> six) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put(
        "target",
        "3 -> 6 brokers with "
            + settings.t3Partitions()
            + " partitions: throughput x"
            + TARGET_SPEEDUP
            + " or more; measured on one machine as CPU per instance per broker");
    result.put("clusters", "two fresh clusters per round (not a 3 -> 6 change)");
    result.put("ratePerSecond", settings.t3Rate());
    String[] keys = {
      "piPerSecond",
      "sentInWindow",
      "completedInstances",
      "cpuMsPerInstancePerBrokerMean",
      "cpuMsPerInstancePerBrokerMax",
      "cpuMsPerInstanceAllBrokers",
      "netCpuMsPerInstancePerBrokerMean",
      "netCpuMsPerInstancePerBrokerMax",
      "netCpuMsPerInstanceAllBrokers",
      "cpuMsPerInstanceGateway",
      "machineBusyCores",
      "machineCeilingPiPerSecond"
    };
    Map<String, Object> threeMedians = new LinkedHashMap<>();
    Map<String, Object> sixMedians = new LinkedHashMap<>();
    for (String key : keys) {
      threeMedians.put(key, median(MoveUnderLoad.doubles(three, key)));
      sixMedians.put(key, median(MoveUnderLoad.doubles(six, key)));
    }
    result.put("threeBrokers", threeMedians);
    result.put("sixBrokers", sixMedians);
    double perBroker = ratio(sixMedians, threeMedians, "cpuMsPerInstancePerBrokerMean");
    double netPerBroker = ratio(sixMedians, threeMedians, "netCpuMsPerInstancePerBrokerMean");
    // With a core (or a machine) per broker, the busiest broker bounds what the cluster sustains;
    // the work the instances cause, not what brokers spend idle, is what more load would add.
    double projected = 1 / ratio(sixMedians, threeMedians, "netCpuMsPerInstancePerBrokerMax");
    double throughput = ratio(sixMedians, threeMedians, "piPerSecond");
    boolean measured =
        Double.isFinite(projected)
            && three.stream().allMatch(f -> ((Number) f.get("completedInstances")).longValue() > 0)
            && six.stream().allMatch(f -> ((Number) f.get("completedInstances")).longValue() > 0);
    boolean met = measured && projected >= TARGET_SPEEDUP;
    result.put("measured", measured);
    result.put("met", met);
    result.put("perBrokerCpuRatio", round(perBroker, 3));
    result.put("netPerBrokerCpuRatio", round(netPerBroker, 3));
    result.put("projectedSpeedup", round(projected, 3));
    result.put("piPerSecondRatio", round(throughput, 3));
    result.put(
        "verdict",
        String.format(
            "%s: CPU per instance per broker, idle subtracted, %.3f ms (3 brokers) -> %.3f ms (6):"
                + " %.2fx (%.2fx with idle: %.3f -> %.3f ms); busiest broker's: projected speedup"
                + " with a core per broker %.2fx (target %.1fx); all brokers %.3f -> %.3f ms per"
                + " instance (%.3f -> %.3f idle subtracted); PI/s %.0f -> %.0f at %.0f offered;"
                + " this machine's ceiling ~%.0f -> ~%.0f PI/s (%d cores shared by every process)",
            met ? "PASS" : "FAIL",
            threeMedians.get("netCpuMsPerInstancePerBrokerMean"),
            sixMedians.get("netCpuMsPerInstancePerBrokerMean"),
            netPerBroker,
            perBroker,
            threeMedians.get("cpuMsPerInstancePerBrokerMean"),
            sixMedians.get("cpuMsPerInstancePerBrokerMean"),
            projected,
            TARGET_SPEEDUP,
            threeMedians.get("cpuMsPerInstanceAllBrokers"),
            sixMedians.get("cpuMsPerInstanceAllBrokers"),
            threeMedians.get("netCpuMsPerInstanceAllBrokers"),
            sixMedians.get("netCpuMsPerInstanceAllBrokers"),
            threeMedians.get("piPerSecond"),
            sixMedians.get("piPerSecond"),
            settings.t3Rate(),
            threeMedians.get("machineCeilingPiPerSecond"),
            sixMedians.get("machineCeilingPiPerSecond"),
            Runtime.getRuntime().availableProcessors()));
    result.put("threeBrokerRounds", three);
    result.put("sixBrokerRounds", six);
    return result;
  }
}
