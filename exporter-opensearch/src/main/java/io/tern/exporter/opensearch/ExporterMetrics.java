package io.tern.exporter.opensearch;

import io.camunda.zeebe.exporter.api.context.Context;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * The exporter's meters, on the broker's registry: {@code tern.exporter.opensearch.flush} (a timer
 * of the flushes that succeeded), {@code tern.exporter.opensearch.bulk.documents} and {@code
 * .bulk.bytes} (the size of each flush), {@code tern.exporter.opensearch.failures} (flushes and
 * template requests that failed); tags {@code exporter} (the id) and {@code partition}.
 *
 * <p>The registry comes from {@code Context.getMeterRegistry()}, a method of the exporter API 8.6
 * that this exporter, compiled against 8.3, calls by reflection: Tern's context declares it, and on
 * a context without it there are no meters (the exporter works the same).
 */
final class ExporterMetrics {
  private static final ExporterMetrics NONE = new ExporterMetrics(null, null, null, null, null);

  private final Timer flushes;
  private final DistributionSummary documents;
  private final DistributionSummary bytes;
  private final Counter failures;
  private final MeterRegistry registry;

  private ExporterMetrics(
      MeterRegistry registry,
      Timer flushes,
      DistributionSummary documents,
      DistributionSummary bytes,
      Counter failures) {
    this.registry = registry;
    this.flushes = flushes;
    this.documents = documents;
    this.bytes = bytes;
    this.failures = failures;
  }

  static ExporterMetrics of(Context context, String exporterId) {
    Optional<MeterRegistry> registry = call(context, "getMeterRegistry", MeterRegistry.class);
    if (registry.isEmpty()) {
      return NONE;
    }
    String partition =
        call(context, "getPartitionId", Integer.class).map(String::valueOf).orElse("");
    MeterRegistry meters = registry.get();
    String[] tags = {"exporter", exporterId, "partition", partition};
    return new ExporterMetrics(
        meters,
        Timer.builder("tern.exporter.opensearch.flush")
            .description("Flushes of the OpenSearch exporter's buffer that the node accepted")
            .tags(tags)
            .register(meters),
        DistributionSummary.builder("tern.exporter.opensearch.bulk.documents")
            .description("Documents in each flush")
            .tags(tags)
            .register(meters),
        DistributionSummary.builder("tern.exporter.opensearch.bulk.bytes")
            .description("Bytes of each bulk request")
            .baseUnit("bytes")
            .tags(tags)
            .register(meters),
        Counter.builder("tern.exporter.opensearch.failures")
            .description("Bulk and template requests that failed")
            .tags(tags)
            .register(meters));
  }

  void flushed(long nanos, int documentCount, int byteCount) {
    if (registry != null) {
      flushes.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
      documents.record(documentCount);
      bytes.record(byteCount);
    }
  }

  void failed() {
    if (registry != null) {
      failures.increment();
    }
  }

  /** Removes the meters (the exporter instance is closed; the next one registers them again). */
  void close() {
    if (registry != null) {
      registry.remove(flushes);
      registry.remove(documents);
      registry.remove(bytes);
      registry.remove(failures);
    }
  }

  private static <T> Optional<T> call(Context context, String method, Class<T> type) {
    try {
      Method getter = context.getClass().getMethod(method);
      Object value = getter.invoke(context);
      return type.isInstance(value) ? Optional.of(type.cast(value)) : Optional.empty();
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      // A context without the method (an older API), or a registry of another class loader.
      return Optional.empty();
    }
  }
}
