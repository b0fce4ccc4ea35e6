package io.tern.benchmark.soak;

import io.tern.benchmark.load.MetricsWindow;
import io.tern.benchmark.load.MetricsWindow.Sample;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The brokers' side of each interval, from every broker's {@code /actuator/prometheus}: per broker
 * its heap after GC, RSS, GC pause time, CPU and whether it restarted (its process start time
 * moved); per partition replica its disk use by part and snapshot count; per partition its leader's
 * backpressure limit; over the cluster the leader changes and the commit, processing and job
 * activation latency p99 of the interval (from the histograms' growth since the last scrape).
 * Counters of a broker that restarted or did not answer are left out of that interval's growth.
 */
final class BrokerSignals {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final double MB = 1024 * 1024;
  private static final int LEADER = 3; // tern.raft.role

  static final String COMMIT = "tern_raft_commit_latency_seconds";
  static final String PROCESSING = "tern_processor_processing_latency_seconds";
  static final String JOB_ACTIVATION = "tern_workflow_job_activation_seconds";

  private final List<URI> endpoints;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private final Map<Integer, List<Sample>> previous = new HashMap<>();

  BrokerSignals(List<String> managementAddresses) {
    this.endpoints =
        managementAddresses.stream()
            .map(address -> URI.create("http://" + address + "/actuator/prometheus"))
            .toList();
  }

  /** Scrapes every broker: the signals of an interval {@code seconds} long. */
  Map<String, Double> scrape(double seconds) {
    List<List<Sample>> scrapes = new ArrayList<>();
    for (URI endpoint : endpoints) {
      scrapes.add(fetch(endpoint));
    }
    return signals(scrapes, seconds);
  }

  /** The signals from one scrape per broker (null where it did not answer), by node id. */
  Map<String, Double> signals(List<List<Sample>> scrapes, double seconds) {
    Map<String, Double> signals = new LinkedHashMap<>();
    Map<String, Map<Double, Double>> buckets = new HashMap<>();
    double leaderChanges = 0;
    double cpu = 0;
    for (int node = 0; node < scrapes.size(); node++) {
      List<Sample> now = scrapes.get(node);
      signals.put(Signals.broker(node, Signals.UP), now == null ? 0.0 : 1.0);
      if (now == null) {
        continue;
      }
      List<Sample> before = previous.put(node, now);
      double startedAt = sum(now, "process_start_time_seconds");
      boolean restarted =
          before != null
              && Double.isFinite(startedAt)
              && startedAt != sum(before, "process_start_time_seconds");
      signals.put(Signals.broker(node, Signals.RESTARTS), restarted ? 1.0 : 0.0);
      signals.put(
          Signals.broker(node, Signals.HEAP_AFTER_GC),
          sum(now, "tern_jvm_heap_after_gc_bytes") / MB);
      signals.put(
          Signals.broker(node, Signals.RSS), sum(now, "tern_process_resident_memory_bytes") / MB);
      signals.put(
          Signals.broker(node, Signals.RSS_ANONYMOUS),
          sum(now, "tern_process_resident_anonymous_memory_bytes") / MB);
      double cores = sum(now, "process_cpu_usage") * sum(now, "system_cpu_count");
      signals.put(Signals.broker(node, Signals.CPU), cores);
      cpu += cores;
      for (Sample sample : now) {
        String partition = sample.labels().get("partition");
        if (partition == null) {
          continue;
        }
        int id = Integer.parseInt(partition);
        switch (sample.name()) {
          case "tern_partition_disk_used_bytes" -> {
            String part = sample.labels().getOrDefault("part", "");
            String signal =
                switch (part) {
                  case "journal" -> Signals.DISK_JOURNAL;
                  case "snapshots" -> Signals.DISK_SNAPSHOTS;
                  default -> Signals.DISK_RUNTIME;
                };
            signals.put(Signals.replica(node, id, signal), sample.value() / MB);
          }
          case "tern_raft_snapshot_count" ->
              signals.put(Signals.replica(node, id, Signals.SNAPSHOT_COUNT), sample.value());
          case "tern_backpressure_limit" -> {
            if (value(now, "tern_raft_role", partition) == LEADER) {
              signals.put(Signals.partition(id, Signals.BACKPRESSURE_LIMIT), sample.value());
            }
          }
          default -> {}
        }
      }
      if (before == null || restarted) {
        continue; // its counters start over: no growth to take this time
      }
      signals.put(
          Signals.broker(node, Signals.GC_PAUSE),
          (sum(now, "jvm_gc_pause_seconds_sum") - sum(before, "jvm_gc_pause_seconds_sum"))
              * 1000
              / seconds);
      leaderChanges +=
          sum(now, "tern_raft_leader_changes_total")
              - sum(before, "tern_raft_leader_changes_total");
      for (String histogram : List.of(COMMIT, PROCESSING, JOB_ACTIVATION)) {
        addGrowth(buckets.computeIfAbsent(histogram, h -> new TreeMap<>()), histogram, before, now);
      }
    }
    signals.put(Signals.LEADER_CHANGES, leaderChanges);
    signals.put(Signals.COMMIT_P99, p99(buckets.get(COMMIT)));
    signals.put(Signals.PROCESSING_P99, p99(buckets.get(PROCESSING)));
    signals.put(Signals.JOB_ACTIVATION_P99, p99(buckets.get(JOB_ACTIVATION)));
    signals.put(Signals.BROKERS_CPU, cpu);
    return signals;
  }

  /** Adds the growth of {@code name}'s buckets between two scrapes of one broker. */
  private static void addGrowth(
      Map<Double, Double> buckets, String name, List<Sample> before, List<Sample> now) {
    for (int side = 0; side < 2; side++) {
      double sign = side == 0 ? -1 : 1;
      for (Sample sample : side == 0 ? before : now) {
        if (sample.name().equals(name + "_bucket")) {
          String le = sample.labels().get("le");
          double bound = le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
          buckets.merge(bound, sign * sample.value(), Double::sum);
        }
      }
    }
  }

  private static double p99(Map<Double, Double> buckets) {
    if (buckets == null) {
      return Double.NaN;
    }
    double count = buckets.getOrDefault(Double.POSITIVE_INFINITY, 0.0);
    return new MetricsWindow.Histogram(buckets, 0, count).quantileMs(0.99);
  }

  private static double sum(List<Sample> samples, String name) {
    double total = 0;
    boolean found = false;
    for (Sample sample : samples) {
      if (sample.name().equals(name)) {
        total += sample.value();
        found = true;
      }
    }
    return found ? total : Double.NaN;
  }

  private static double value(List<Sample> samples, String name, String partition) {
    for (Sample sample : samples) {
      if (sample.name().equals(name) && partition.equals(sample.labels().get("partition"))) {
        return sample.value();
      }
    }
    return Double.NaN;
  }

  private List<Sample> fetch(URI endpoint) {
    try {
      HttpResponse<String> answer =
          http.send(
              HttpRequest.newBuilder(endpoint).timeout(TIMEOUT).build(),
              HttpResponse.BodyHandlers.ofString());
      return answer.statusCode() == 200 ? MetricsWindow.parse(answer.body()) : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
