package io.tern.engine.cluster;

/**
 * Latency injected on the command API's calls to and from other brokers, an experiment (see the
 * broker's {@code experimental.network.*} keys): none unless configured.
 */
@FunctionalInterface
public interface CallLatency {
  /** A one-way delay, and the most a message may be delayed further at random. */
  record Delay(long delayNs, long jitterNs) {
    public static final Delay NONE = new Delay(0, 0);

    boolean none() {
      return delayNs == 0 && jitterNs == 0;
    }
  }

  /** The delay of the messages between this process and broker {@code nodeId}, each way. */
  Delay toNode(int nodeId);

  CallLatency NONE = nodeId -> Delay.NONE;
}
