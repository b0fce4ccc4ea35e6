package io.tern.journal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The journal's meters. Without a registry every method is a no-op and {@link #nowNs()} returns 0,
 * so the append path does no timing at all.
 *
 * <p>Names (Prometheus form in brackets): {@code tern.journal.append.latency}
 * [tern_journal_append_latency_seconds] (sampled, see {@link #APPEND_LATENCY_SAMPLE_EVERY}), {@code
 * tern.journal.flush.latency}, {@code tern.journal.flush.bytes}, {@code
 * tern.journal.segment.allocation.latency} (background creation of the next segment), {@code
 * tern.journal.segment.roll.wait} (time the writer waited for it), {@code
 * tern.journal.zero.fill.bytes} and {@code tern.journal.zero.fill.overtaken} (zeros that flushes
 * write ahead, {@link JournalConfig.Preallocation#ZERO_ON_FLUSH}), and gauges {@code
 * tern.journal.segments}, {@code tern.journal.last.index}, {@code tern.journal.last.flushed.index}.
 */
final class JournalMetrics {
  /**
   * Append latency is recorded for one append in this many: recording into a percentile histogram
   * costs about as much as a small append itself, and a sample describes the distribution just as
   * well.
   */
  static final int APPEND_LATENCY_SAMPLE_EVERY = 16;

  private final boolean enabled;
  private int appendsUntilSample;
  private final Timer appendLatency;
  private final Timer flushLatency;
  private final DistributionSummary flushBytes;
  private final Timer allocationLatency;
  private final Timer rollWait;
  private final Counter zeroFillBytes;
  private final Counter zeroFillOvertaken;

  JournalMetrics(MeterRegistry registry, Tags tags) {
    this.enabled = registry != null;
    if (!enabled) {
      appendLatency = null;
      flushLatency = null;
      flushBytes = null;
      allocationLatency = null;
      rollWait = null;
      zeroFillBytes = null;
      zeroFillOvertaken = null;
      return;
    }
    appendLatency =
        timer(registry, tags, "tern.journal.append.latency", "Time to append one entry");
    flushLatency =
        timer(registry, tags, "tern.journal.flush.latency", "Time to force appended entries");
    flushBytes =
        DistributionSummary.builder("tern.journal.flush.bytes")
            .description("Bytes forced to disk per flush")
            .baseUnit("bytes")
            .tags(tags)
            .publishPercentileHistogram()
            .register(registry);
    allocationLatency =
        timer(
            registry,
            tags,
            "tern.journal.segment.allocation.latency",
            "Time to create and preallocate a segment file");
    rollWait =
        timer(
            registry,
            tags,
            "tern.journal.segment.roll.wait",
            "Time the writer waited for the next segment when rolling");
    zeroFillBytes =
        Counter.builder("tern.journal.zero.fill.bytes")
            .description(
                "Zeros written and forced ahead of the writer by flushes (preallocation"
                    + " zero-on-flush)")
            .baseUnit("bytes")
            .tags(tags)
            .register(registry);
    zeroFillOvertaken =
        Counter.builder("tern.journal.zero.fill.overtaken")
            .description("Segments whose zeros stopped because appends overtook them")
            .tags(tags)
            .register(registry);
  }

  private static Timer timer(MeterRegistry registry, Tags tags, String name, String description) {
    return Timer.builder(name)
        .description(description)
        .tags(tags)
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(100))
        .maximumExpectedValue(Duration.ofSeconds(10))
        .register(registry);
  }

  <T> void registerGauges(MeterRegistry registry, Tags tags, T journal, Gauges<T> gauges) {
    if (!enabled) {
      return;
    }
    gauge(registry, tags, "tern.journal.segments", journal, gauges.segments());
    gauge(registry, tags, "tern.journal.last.index", journal, gauges.lastIndex());
    gauge(registry, tags, "tern.journal.last.flushed.index", journal, gauges.lastFlushedIndex());
  }

  private static <T> void gauge(
      MeterRegistry registry, Tags tags, String name, T journal, ToDoubleFunction<T> value) {
    Gauge.builder(name, journal, value).tags(tags).register(registry);
  }

  long nowNs() {
    return enabled ? System.nanoTime() : 0;
  }

  /** Start time of an append that will be sampled, or 0 (writer thread only). */
  long appendStartNs() {
    if (!enabled || --appendsUntilSample > 0) {
      return 0;
    }
    appendsUntilSample = APPEND_LATENCY_SAMPLE_EVERY;
    return System.nanoTime();
  }

  void appended(long startNs) {
    if (startNs != 0) {
      appendLatency.record(System.nanoTime() - startNs, TimeUnit.NANOSECONDS);
    }
  }

  void flushed(long startNs, long bytes) {
    if (enabled) {
      flushLatency.record(System.nanoTime() - startNs, TimeUnit.NANOSECONDS);
      flushBytes.record(bytes);
    }
  }

  void allocated(long startNs) {
    if (enabled) {
      allocationLatency.record(System.nanoTime() - startNs, TimeUnit.NANOSECONDS);
    }
  }

  void rollWaited(long startNs) {
    if (enabled) {
      rollWait.record(System.nanoTime() - startNs, TimeUnit.NANOSECONDS);
    }
  }

  void zeroFillOvertaken() {
    if (enabled) {
      zeroFillOvertaken.increment();
    }
  }

  void zeroFilled(long bytes) {
    if (enabled) {
      zeroFillBytes.increment(bytes);
    }
  }

  record Gauges<T>(
      ToDoubleFunction<T> segments,
      ToDoubleFunction<T> lastIndex,
      ToDoubleFunction<T> lastFlushedIndex) {}
}
