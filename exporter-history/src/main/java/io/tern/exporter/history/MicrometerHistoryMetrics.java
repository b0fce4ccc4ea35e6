package io.tern.exporter.history;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/** {@link HistoryMetrics} in the broker's registry, tagged with the exporter and partition. */
final class MicrometerHistoryMetrics implements HistoryMetrics {
  private final Timer flushes;
  private final Counter rows;
  private final DistributionSummary batchRows;
  private final Counter failures;
  private final Counter deleted;

  MicrometerHistoryMetrics(Object registryObject, String exporterId, int partitionId) {
    MeterRegistry registry = (MeterRegistry) registryObject;
    Tags tags = Tags.of("exporter", exporterId, "partition", Integer.toString(partitionId));
    flushes =
        Timer.builder("tern.history.flush")
            .description("Flushes of the history store: one transaction each")
            .tags(tags)
            .register(registry);
    rows =
        Counter.builder("tern.history.rows")
            .description("Rows written to the history store")
            .tags(tags)
            .register(registry);
    batchRows =
        DistributionSummary.builder("tern.history.batch.rows")
            .description("Rows per flush")
            .tags(tags)
            .register(registry);
    failures =
        Counter.builder("tern.history.failures")
            .description("Flushes and retention runs that failed")
            .tags(tags)
            .register(registry);
    deleted =
        Counter.builder("tern.history.retention.deleted")
            .description("Finished process instances deleted by retention")
            .tags(tags)
            .register(registry);
  }

  @Override
  public void flushed(int count, long nanos) {
    flushes.record(nanos, TimeUnit.NANOSECONDS);
    rows.increment(count);
    batchRows.record(count);
  }

  @Override
  public void failed() {
    failures.increment();
  }

  @Override
  public void deleted(int instances) {
    deleted.increment(instances);
  }
}
