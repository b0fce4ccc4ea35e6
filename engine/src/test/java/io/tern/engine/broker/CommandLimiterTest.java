package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.netflix.concurrency.limits.Limiter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.MessageIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The per-partition limit on client commands in flight, and what it never refuses. */
class CommandLimiterTest {
  private static BackpressureConfig config(Map<String, String> environment) {
    return BrokerConfigLoader.load(null, environment).backpressure();
  }

  @Test
  void overTheLimitCommandsAreRefusedUntilOneFinishes() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    CommandLimiter limiter =
        new CommandLimiter(
            config(
                Map.of(
                    "TERN_BACKPRESSURE_ALGORITHM", "fixed", "TERN_BACKPRESSURE_FIXED_LIMIT", "2")),
            1,
            registry);
    Intent create = CreationIntent.CREATE;
    Optional<Limiter.Listener> first = limiter.acquire(create);
    Optional<Limiter.Listener> second = limiter.acquire(create);
    assertThat(first).isPresent();
    assertThat(second).isPresent();
    assertThat(limiter.acquire(create)).isEmpty();
    assertThat(registry.get("tern.backpressure.rejected").counter().count()).isEqualTo(1);

    // Finishing work is never refused, even at the limit.
    assertThat(limiter.acquire(JobIntent.COMPLETE)).isPresent();
    assertThat(limiter.acquire(JobIntent.FAIL)).isPresent();
    assertThat(limiter.acquire(ProcessInstanceIntent.CANCEL)).isPresent();

    first.get().onSuccess();
    assertThat(limiter.acquire(create)).isPresent();
  }

  @Test
  void aimdLowersItsLimitWhenAnswersAreDropped() {
    CommandLimiter limiter =
        new CommandLimiter(
            config(Map.of("TERN_BACKPRESSURE_AIMD_INITIALLIMIT", "100")),
            1,
            new SimpleMeterRegistry());
    assertThat(limiter.limit()).isEqualTo(100);
    for (int i = 0; i < WindowedAimdLimit.WINDOW_COMMANDS; i++) {
      limiter.acquire(MessageIntent.PUBLISH).get().onDropped();
    }
    assertThat(limiter.limit()).isLessThan(100);
  }

  @Test
  void disabledItRefusesNothing() {
    CommandLimiter limiter =
        new CommandLimiter(
            config(
                Map.of(
                    "TERN_BACKPRESSURE_ENABLED", "false",
                    "TERN_BACKPRESSURE_ALGORITHM", "fixed",
                    "TERN_BACKPRESSURE_FIXED_LIMIT", "1")),
            1,
            new SimpleMeterRegistry());
    for (int i = 0; i < 10; i++) {
      assertThat(limiter.acquire(CreationIntent.CREATE)).isPresent();
    }
  }
}
