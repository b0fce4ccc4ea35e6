package io.tern.engine.workflow;

import java.time.Duration;

/**
 * The workflow engine's settings.
 *
 * @param partitions the partitions of the cluster, to correlate messages across them
 * @param subscriptionRetryInterval how long a message subscription waits for the other partition to
 *     acknowledge before asking again (longer: fewer duplicate commands after a leader change;
 *     shorter: faster recovery from a lost command)
 * @param jobStreams workers' open job streams (job push) and long-polling requests to wake
 */
public record WorkflowConfig(
    Partitions partitions, Duration subscriptionRetryInterval, JobStreams jobStreams) {
  public static final Duration DEFAULT_SUBSCRIPTION_RETRY_INTERVAL = Duration.ofSeconds(10);

  public WorkflowConfig {
    if (subscriptionRetryInterval.isNegative() || subscriptionRetryInterval.isZero()) {
      throw new IllegalArgumentException(
          "subscriptionRetryInterval must be positive, got " + subscriptionRetryInterval);
    }
  }

  /** One partition, default intervals. */
  public static WorkflowConfig defaults() {
    return new WorkflowConfig(
        Partitions.SINGLE, DEFAULT_SUBSCRIPTION_RETRY_INTERVAL, JobStreams.NONE);
  }

  public WorkflowConfig withPartitions(Partitions partitions) {
    return new WorkflowConfig(partitions, subscriptionRetryInterval, jobStreams);
  }

  public WorkflowConfig withSubscriptionRetryInterval(Duration interval) {
    return new WorkflowConfig(partitions, interval, jobStreams);
  }

  public WorkflowConfig withJobStreams(JobStreams streams) {
    return new WorkflowConfig(partitions, subscriptionRetryInterval, streams);
  }
}
