package io.tern.engine.broker;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import java.util.Optional;

/**
 * One partition's limit on commands in flight from clients: over the limit a command is refused at
 * once, so that an overloaded partition answers RESOURCE_EXHAUSTED quickly instead of queueing
 * without bound. A command is in flight from its write until it is processed ({@link
 * InFlightRequests}), so the limit follows commit and processing latency, not how long a process
 * instance runs. Commands that finish work (complete or fail a job, cancel an instance) are never
 * refused: refusing them would only keep the load where it is.
 */
final class CommandLimiter {
  /** No limit: every command passes. */
  private static final Limiter.Listener UNLIMITED =
      new Limiter.Listener() {
        @Override
        public void onSuccess() {}

        @Override
        public void onIgnore() {}

        @Override
        public void onDropped() {}
      };

  private final SimpleLimiter<Void> limiter;
  private final Counter rejected;

  CommandLimiter(BackpressureConfig config, int partitionId, MeterRegistry registry) {
    this.limiter =
        config.enabled() ? SimpleLimiter.newBuilder().limit(limitOf(config)).build() : null;
    Tags tags = Tags.of("partition", Integer.toString(partitionId));
    this.rejected =
        Counter.builder("tern.backpressure.rejected")
            .description("client commands refused because the partition was at its limit")
            .tags(tags)
            .register(registry);
    if (limiter != null) {
      Gauge.builder("tern.backpressure.limit", limiter, SimpleLimiter::getLimit)
          .description("client commands the partition takes in flight now")
          .tags(tags)
          .register(registry);
      Gauge.builder("tern.backpressure.inflight", limiter, SimpleLimiter::getInflight)
          .description("client commands in flight (written, not yet processed)")
          .tags(tags)
          .register(registry);
    }
  }

  private static Limit limitOf(BackpressureConfig config) {
    return switch (config.algorithm()) {
      case "vegas" ->
          VegasLimit.newBuilder()
              .initialLimit(config.vegasInitialLimit())
              .alpha(config.vegasAlpha())
              .beta(config.vegasBeta())
              .build();
      case "fixed" -> FixedLimit.of(config.fixedLimit());
      default ->
          new WindowedAimdLimit(
              config.aimdInitialLimit(),
              config.aimdMinLimit(),
              config.aimdMaxLimit(),
              config.aimdBackoffRatio(),
              config.aimdRequestTimeout().toNanos());
    };
  }

  /** Whether a command of this kind is exempt: it finishes work rather than adding it. */
  static boolean isExempt(Intent intent) {
    return intent == JobIntent.COMPLETE
        || intent == JobIntent.FAIL
        || intent == JobIntent.THROW_ERROR
        || intent == ProcessInstanceIntent.CANCEL;
  }

  /**
   * A slot for one command, to be released once (success when processed or answered, dropped on a
   * timeout, ignore when it could not be written); empty if the partition is at its limit.
   */
  Optional<Limiter.Listener> acquire(Intent intent) {
    if (limiter == null || isExempt(intent)) {
      return Optional.of(UNLIMITED);
    }
    Optional<Limiter.Listener> slot = limiter.acquire(null);
    if (slot.isEmpty()) {
      rejected.increment();
    }
    return slot;
  }

  /** Whether commands are limited at all ({@code backpressure.enabled}). */
  boolean enabled() {
    return limiter != null;
  }

  int limit() {
    return limiter == null ? Integer.MAX_VALUE : limiter.getLimit();
  }

  /** Commands holding a slot now (0 when disabled). */
  int inFlight() {
    return limiter == null ? 0 : limiter.getInflight();
  }

  /** Commands refused since the broker started. */
  long refused() {
    return (long) rejected.count();
  }
}
