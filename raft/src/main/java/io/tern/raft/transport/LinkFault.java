package io.tern.raft.transport;

/**
 * What a {@link FaultInjectingTransport} does to the messages of one outbound link.
 *
 * @param dropProbability chance in [0, 1] that a message is lost
 * @param delayMs fixed delay added to every message that is not lost
 * @param jitterMs a further delay drawn uniformly from [0, jitterMs]; order is still kept, as on a
 *     delayed TCP link
 * @param partitioned lose every message (the link is cut)
 */
public record LinkFault(double dropProbability, long delayMs, long jitterMs, boolean partitioned) {
  public static final LinkFault NONE = new LinkFault(0, 0, 0, false);
  public static final LinkFault PARTITIONED = new LinkFault(0, 0, 0, true);

  public LinkFault {
    if (!(dropProbability >= 0 && dropProbability <= 1)) {
      throw new IllegalArgumentException(
          "link fault: dropProbability must be in [0, 1], got " + dropProbability);
    }
    if (delayMs < 0 || jitterMs < 0) {
      throw new IllegalArgumentException(
          "link fault: delayMs and jitterMs must be >= 0, got " + delayMs + " and " + jitterMs);
    }
  }

  public static LinkFault drop(double probability) {
    return new LinkFault(probability, 0, 0, false);
  }

  public static LinkFault delay(long delayMs) {
    return new LinkFault(0, delayMs, 0, false);
  }

  public static LinkFault delay(long delayMs, long jitterMs) {
    return new LinkFault(0, delayMs, jitterMs, false);
  }

  public LinkFault withDropProbability(double probability) {
    return new LinkFault(probability, delayMs, jitterMs, partitioned);
  }

  public LinkFault withDelay(long newDelayMs, long newJitterMs) {
    return new LinkFault(dropProbability, newDelayMs, newJitterMs, partitioned);
  }

  boolean delays() {
    return delayMs > 0 || jitterMs > 0;
  }
}
