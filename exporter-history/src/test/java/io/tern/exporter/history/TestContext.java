package io.tern.exporter.history;

import io.camunda.zeebe.exporter.api.context.Configuration;
import io.camunda.zeebe.exporter.api.context.Context;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A context as Tern's: the 8.3 interface plus the public {@code getPartitionId}, {@code
 * getMeterRegistry} and {@code clock} of the newer APIs (public class: they are called
 * reflectively).
 */
public final class TestContext implements Context {
  private final Configuration configuration;
  private final int partitionId;
  private final MeterRegistry registry;
  private final InstantSource clock;
  volatile RecordFilter filter;

  TestContext(
      Configuration configuration, int partitionId, MeterRegistry registry, InstantSource clock) {
    this.configuration = configuration;
    this.partitionId = partitionId;
    this.registry = registry;
    this.clock = clock;
  }

  @Override
  public Logger getLogger() {
    return LoggerFactory.getLogger("io.tern.exporter." + configuration.getId());
  }

  @Override
  public Configuration getConfiguration() {
    return configuration;
  }

  @Override
  public void setFilter(RecordFilter filter) {
    this.filter = filter;
  }

  public int getPartitionId() {
    return partitionId;
  }

  public MeterRegistry getMeterRegistry() {
    return registry;
  }

  public InstantSource clock() {
    return clock;
  }
}
