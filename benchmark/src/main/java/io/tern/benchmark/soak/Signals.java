package io.tern.benchmark.soak;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of the signals a soak records each interval, as they appear in its JSON Lines. Rates
 * are per second over the interval, latencies in milliseconds (quantiles of the interval), sizes in
 * megabytes. Signals of one broker are {@code broker.<node>.<signal>}; of one partition's replica
 * on a broker, {@code broker.<node>.partition.<id>.<signal>}.
 */
final class Signals {
  // What the soak's own clients saw.
  static final String SENT = "sent"; // creates (or start messages) sent, per second
  static final String STARTED = "started"; // of them, accepted
  static final String COMPLETED = "completed"; // instances ended, per second
  static final String REJECTED = "rejected"; // refused by backpressure (RESOURCE_EXHAUSTED)
  static final String FAILED = "failed"; // any other error, per second
  static final String PEL_P50 = "pel.p50";
  static final String PEL_P90 = "pel.p90";
  static final String PEL_P99 = "pel.p99";
  static final String PEL_MAX = "pel.max";
  static final String CLIENT_CPU = "client.cpu.cores";
  static final String CLIENT_HEAP = "client.heap.after.gc.mb";

  // From the brokers, over the whole cluster.
  static final String JOB_ACTIVATION_P99 = "job.activation.p99";
  static final String COMMIT_P99 = "commit.latency.p99";
  static final String PROCESSING_P99 = "processing.latency.p99";
  static final String LEADER_CHANGES = "leader.changes"; // in the interval, as members saw them
  static final String CPU_PER_INSTANCE = "cpu.per.instance.ms"; // all brokers' CPU / completed
  static final String BROKERS_CPU = "brokers.cpu.cores"; // all brokers' CPU

  // Per broker (suffixes of broker.<node>.).
  static final String UP = "up"; // 1 if its metrics answered
  static final String RESTARTS = "restarts"; // its process start time changed
  static final String HEAP_AFTER_GC = "heap.after.gc.mb";
  static final String RSS = "rss.mb";
  static final String RSS_ANONYMOUS = "rss.anonymous.mb"; // RSS without mapped files
  static final String GC_PAUSE = "gc.pause.ms.per.s";
  static final String CPU = "cpu.cores";

  // Per partition replica (suffixes of broker.<node>.partition.<id>.).
  static final String DISK_JOURNAL = "disk.journal.mb";
  static final String DISK_SNAPSHOTS = "disk.snapshots.mb";
  static final String DISK_RUNTIME = "disk.runtime.mb";
  static final String SNAPSHOT_COUNT = "snapshots";

  // Per partition (suffix of partition.<id>.), from its leader.
  static final String BACKPRESSURE_LIMIT = "backpressure.limit";

  private static final Pattern BROKER = Pattern.compile("broker\\.(\\d+)\\.(.+)");

  private Signals() {}

  static String broker(int node, String signal) {
    return "broker." + node + "." + signal;
  }

  static String replica(int node, int partition, String signal) {
    return "broker." + node + ".partition." + partition + "." + signal;
  }

  static String partition(int partition, String signal) {
    return "partition." + partition + "." + signal;
  }

  /** Whether {@code name} is a broker's signal ending in {@code suffix} (not a replica's). */
  static boolean isBrokers(String name, String suffix) {
    Matcher matcher = BROKER.matcher(name);
    return matcher.matches()
        && matcher.group(2).equals(suffix)
        && !matcher.group(2).startsWith("partition.");
  }

  /** "broker 2" for broker.2.heap.after.gc.mb, "broker 1 partition 3" for a replica's. */
  static String owner(String name) {
    String[] parts = name.split("\\.");
    if (parts.length > 3 && parts[0].equals("broker") && parts[2].equals("partition")) {
      return String.format(Locale.ROOT, "broker %s partition %s", parts[1], parts[3]);
    }
    if (parts.length > 1 && (parts[0].equals("broker") || parts[0].equals("partition"))) {
      return parts[0] + " " + parts[1];
    }
    return name;
  }
}
