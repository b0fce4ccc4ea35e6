package io.tern.engine.exporter;

import io.camunda.zeebe.exporter.api.context.Configuration;
import io.camunda.zeebe.exporter.api.context.Context;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code Context} an exporter is configured with. Tern compiles against the exporter API 8.3,
 * whose {@code Context} has {@code getLogger}, {@code getConfiguration} and {@code setFilter}; this
 * class also declares what 8.5 ({@code getPartitionId}) and 8.6 ({@code getMeterRegistry}, {@code
 * clock}) added, so that an exporter built against those finds them when that API is on the class
 * path (docs/exporters.md).
 */
public final class ExporterContext implements Context {
  /** Exporters log under this name and their id: {@code io.tern.exporter.<id>}. */
  public static final String LOGGER_PREFIX = "io.tern.exporter.";

  private final Logger logger;
  private final Configuration configuration;
  private final int partitionId;
  private final MeterRegistry meterRegistry;
  private final InstantSource clock;
  private volatile RecordFilter filter;

  ExporterContext(
      Configuration configuration,
      int partitionId,
      MeterRegistry meterRegistry,
      InstantSource clock) {
    this.logger = LoggerFactory.getLogger(LOGGER_PREFIX + configuration.getId());
    this.configuration = configuration;
    this.partitionId = partitionId;
    this.meterRegistry = meterRegistry;
    this.clock = clock;
  }

  @Override
  public Logger getLogger() {
    return logger;
  }

  @Override
  public Configuration getConfiguration() {
    return configuration;
  }

  /** Asked by the partition's director of every record (ExporterContainer); null: every record. */
  @Override
  public void setFilter(RecordFilter filter) {
    this.filter = filter;
  }

  /** The filter the exporter set, or null if it set none. */
  public RecordFilter filter() {
    return filter;
  }

  /** Exporter API 8.5: the partition whose records the exporter gets. */
  public int getPartitionId() {
    return partitionId;
  }

  /** Exporter API 8.6: the broker's registry, for the exporter's own metrics. */
  public MeterRegistry getMeterRegistry() {
    return meterRegistry;
  }

  /** Exporter API 8.6: the broker's clock. */
  public InstantSource clock() {
    return clock;
  }
}
