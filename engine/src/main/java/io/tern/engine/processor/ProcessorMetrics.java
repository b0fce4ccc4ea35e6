package io.tern.engine.processor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** The stream processor's meters, tagged with the partition. */
final class ProcessorMetrics {
  private final Timer processingLatency;
  private final Timer processingDuration;
  private final Counter commandsProcessed;
  private final Counter rejections;
  private final Counter eventsReplayed;
  private final DistributionSummary commandsPerBatch;
  private final Timer leaderReady;

  ProcessorMetrics(MeterRegistry registry, int partitionId, StreamProcessor processor) {
    Tags tags = Tags.of("partition", Integer.toString(partitionId));
    processingLatency =
        Timer.builder("tern.processor.processing.latency")
            .description("from a command's write to the end of its processing")
            .tags(tags)
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofSeconds(10))
            .register(registry);
    processingDuration =
        Timer.builder("tern.processor.processing.duration")
            .description("time to process one command and write its batch")
            .tags(tags)
            .publishPercentileHistogram()
            .register(registry);
    commandsProcessed =
        Counter.builder("tern.processor.commands.processed").tags(tags).register(registry);
    rejections = Counter.builder("tern.processor.rejections").tags(tags).register(registry);
    eventsReplayed =
        Counter.builder("tern.processor.events.replayed").tags(tags).register(registry);
    commandsPerBatch =
        DistributionSummary.builder("tern.processor.batch.commands")
            .description("commands processed in one batch (batch processing)")
            .tags(tags)
            .register(registry);
    leaderReady =
        Timer.builder("tern.processor.leader.ready")
            .description("from this member's election to its first command processed-ready")
            .tags(tags)
            .register(registry);
    Gauge.builder("tern.processor.last.processed.position", processor::lastProcessedPosition)
        .tags(tags)
        .register(registry);
    Gauge.builder("tern.processor.phase", () -> processor.phase().ordinal())
        .description("0 replaying, 1 processing, 2 paused, 3 failed, 4 closed")
        .tags(tags)
        .register(registry);
  }

  void processed(long writtenAtMs, long nowMs, long startNs, long endNs, int commands) {
    processingLatency.record(Math.max(0, nowMs - writtenAtMs), TimeUnit.MILLISECONDS);
    processingDuration.record(endNs - startNs, TimeUnit.NANOSECONDS);
    commandsProcessed.increment(commands);
    commandsPerBatch.record(commands);
  }

  void leaderReady(long nanos) {
    leaderReady.record(nanos, TimeUnit.NANOSECONDS);
  }

  void rejected() {
    rejections.increment();
  }

  void replayed(int events) {
    eventsReplayed.increment(events);
  }
}
