package io.tern.engine.broker;

import io.tern.raft.transport.LinkFault;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * An experiment: latency added to every message between chosen pairs of nodes ({@code
 * experimental.network.*}), to study what a slow network does to process execution latency without
 * a network emulator. Raft messages are delayed by the sending transport ({@link
 * io.tern.raft.transport.FaultInjectingTransport}); the command API by its client, in both
 * directions. So the configured latency is one way, and a round trip gains twice it.
 *
 * @param pairs the pairs of node ids delayed (each written low-high); empty for every pair
 */
public record NetworkLatency(Duration latency, Duration jitter, Set<Pair> pairs) {
  /** No latency injected: the default. */
  public static final NetworkLatency NONE =
      new NetworkLatency(Duration.ZERO, Duration.ZERO, Set.of());

  /** The longest latency or jitter accepted: beyond it, elections would time out. */
  static final Duration MAX = Duration.ofSeconds(10);

  /** Two nodes, the lower id first. */
  public record Pair(int low, int high) {
    static Pair of(int a, int b) {
      return new Pair(Math.min(a, b), Math.max(a, b));
    }

    @Override
    public String toString() {
      return low + "-" + high;
    }
  }

  public NetworkLatency {
    pairs = Set.copyOf(pairs);
  }

  /** Whether any latency is injected at all. */
  public boolean active() {
    return !latency.isZero() || !jitter.isZero();
  }

  /** Whether messages between nodes {@code from} and {@code to} are delayed. */
  public boolean delays(int from, int to) {
    return active() && from != to && (pairs.isEmpty() || pairs.contains(Pair.of(from, to)));
  }

  /** The fault a delayed Raft link gets. */
  LinkFault linkFault() {
    return LinkFault.delay(latency.toMillis(), jitter.toMillis());
  }

  /** "35 ms (jitter 0 ms) between nodes 0-1" or "... between every pair of nodes". */
  public String describe() {
    return latency.toMillis()
        + " ms one way (jitter up to "
        + jitter.toMillis()
        + " ms) between "
        + (pairs.isEmpty() ? "every pair of nodes" : "nodes " + String.join(", ", pairNames()));
  }

  private Set<String> pairNames() {
    Set<String> names = new LinkedHashSet<>();
    pairs.stream()
        .sorted(java.util.Comparator.comparingInt(Pair::low).thenComparingInt(Pair::high))
        .forEach(pair -> names.add(pair.toString()));
    return names;
  }

  static NetworkLatency from(BrokerConfigLoader.Values values, int clusterSize) {
    Duration latency = bounded(values, "experimental.network.latency");
    Duration jitter = bounded(values, "experimental.network.jitter");
    String between = values.text("experimental.network.latencyBetween");
    Set<Pair> pairs = new LinkedHashSet<>();
    if (!between.isEmpty() && !between.equalsIgnoreCase("all")) {
      for (String text : between.split(",")) {
        String[] ends = text.strip().split("-");
        try {
          if (ends.length != 2) {
            throw new NumberFormatException();
          }
          int a = Integer.parseInt(ends[0].strip());
          int b = Integer.parseInt(ends[1].strip());
          if (a == b || a < 0 || b < 0 || a >= clusterSize || b >= clusterSize) {
            values.bad(
                "experimental.network.latencyBetween",
                "pairs of two different node ids from 0 to "
                    + (clusterSize - 1)
                    + " (cluster.clusterSize "
                    + clusterSize
                    + "), such as 0-1; '"
                    + text.strip()
                    + "' is not");
            continue;
          }
          pairs.add(Pair.of(a, b));
        } catch (NumberFormatException e) {
          values.bad(
              "experimental.network.latencyBetween",
              "pairs of node ids such as 0-1,1-2 (empty: every pair); '"
                  + text.strip()
                  + "' is not");
        }
      }
    }
    return new NetworkLatency(latency, jitter, pairs);
  }

  private static Duration bounded(BrokerConfigLoader.Values values, String key) {
    Duration value = values.duration(key);
    if (value.compareTo(MAX) > 0) {
      values.bad(key, "at most " + MAX.toSeconds() + "s");
      return Duration.ZERO;
    }
    return value;
  }
}
