package io.tern.engine.workflow;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.tern.engine.workflow.model.ModelLimits;
import java.time.Duration;

/**
 * The workflow engine's settings.
 *
 * @param partitions the partitions of the cluster, to correlate messages across them
 * @param subscriptionRetryInterval how long a message subscription waits for the other partition to
 *     acknowledge before asking again (longer: fewer duplicate commands after a leader change;
 *     shorter: faster recovery from a lost command)
 * @param jobStreams workers' open job streams (job push) and long-polling requests to wake
 * @param meterRegistry where the engine's latencies go (process instance execution, job activation
 *     and lifetime); the default registry keeps nothing
 * @param resultAwaitLimit how long the leader remembers a client waiting for an instance's result
 *     (CreateProcessInstanceWithResult); a client's request times out at the gateway before, so
 *     this only bounds the memory of awaiters whose clients are gone
 * @param modelLimits what a deployed resource may hold (nesting depth, elements per process,
 *     expression length), checked at deployment
 */
public record WorkflowConfig(
    Partitions partitions,
    Duration subscriptionRetryInterval,
    JobStreams jobStreams,
    Duration resultAwaitLimit,
    MeterRegistry meterRegistry,
    ModelLimits modelLimits) {
  public static final Duration DEFAULT_SUBSCRIPTION_RETRY_INTERVAL = Duration.ofSeconds(10);
  public static final Duration DEFAULT_RESULT_AWAIT_LIMIT = Duration.ofHours(1);

  public WorkflowConfig {
    if (subscriptionRetryInterval.isNegative() || subscriptionRetryInterval.isZero()) {
      throw new IllegalArgumentException(
          "subscriptionRetryInterval must be positive, got " + subscriptionRetryInterval);
    }
    if (resultAwaitLimit.isNegative() || resultAwaitLimit.isZero()) {
      throw new IllegalArgumentException(
          "resultAwaitLimit must be positive, got " + resultAwaitLimit);
    }
  }

  /** One partition, default intervals. */
  public static WorkflowConfig defaults() {
    return new WorkflowConfig(
        Partitions.SINGLE,
        DEFAULT_SUBSCRIPTION_RETRY_INTERVAL,
        JobStreams.NONE,
        DEFAULT_RESULT_AWAIT_LIMIT,
        new CompositeMeterRegistry(),
        ModelLimits.DEFAULTS);
  }

  public WorkflowConfig withPartitions(Partitions partitions) {
    return new WorkflowConfig(
        partitions,
        subscriptionRetryInterval,
        jobStreams,
        resultAwaitLimit,
        meterRegistry,
        modelLimits);
  }

  public WorkflowConfig withSubscriptionRetryInterval(Duration interval) {
    return new WorkflowConfig(
        partitions, interval, jobStreams, resultAwaitLimit, meterRegistry, modelLimits);
  }

  public WorkflowConfig withJobStreams(JobStreams streams) {
    return new WorkflowConfig(
        partitions,
        subscriptionRetryInterval,
        streams,
        resultAwaitLimit,
        meterRegistry,
        modelLimits);
  }

  public WorkflowConfig withMeterRegistry(MeterRegistry registry) {
    return new WorkflowConfig(
        partitions, subscriptionRetryInterval, jobStreams, resultAwaitLimit, registry, modelLimits);
  }

  public WorkflowConfig withModelLimits(ModelLimits limits) {
    return new WorkflowConfig(
        partitions, subscriptionRetryInterval, jobStreams, resultAwaitLimit, meterRegistry, limits);
  }

  public WorkflowConfig withResultAwaitLimit(Duration limit) {
    return new WorkflowConfig(
        partitions, subscriptionRetryInterval, jobStreams, limit, meterRegistry, modelLimits);
  }
}
