package io.tern.exporter.opensearch;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.camunda.zeebe.exporter.api.context.Configuration;
import io.camunda.zeebe.exporter.api.context.Context;
import io.camunda.zeebe.exporter.api.context.Controller;
import io.camunda.zeebe.exporter.api.context.ScheduledTask;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A context and a controller as the director gives them: args mapped with Jackson as Tern's {@code
 * Configuration.instantiate} does (any case, unknown args ignored, fields filled directly), a meter
 * registry (the 8.6 method, found by reflection), positions and metadata kept, and scheduled tasks
 * that run only when the test says so.
 */
final class TestContext implements Context, Controller {
  private final Map<String, Object> args;
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  RecordFilter filter;
  long position = -1;
  byte[] metadata;
  final List<Runnable> scheduled = new ArrayList<>();
  final List<Duration> delays = new ArrayList<>();

  TestContext(Map<String, Object> args) {
    this.args = args;
  }

  @Override
  public Logger getLogger() {
    return LoggerFactory.getLogger("io.tern.exporter.test");
  }

  @Override
  public Configuration getConfiguration() {
    JsonMapper mapper =
        JsonMapper.builder()
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .build();
    return new Configuration() {
      @Override
      public String getId() {
        return "opensearch";
      }

      @Override
      public Map<String, Object> getArguments() {
        return args;
      }

      @Override
      public <T> T instantiate(Class<T> type) {
        return mapper.convertValue(args, type);
      }
    };
  }

  @Override
  public void setFilter(RecordFilter filter) {
    this.filter = filter;
  }

  public int getPartitionId() {
    return 1;
  }

  public MeterRegistry getMeterRegistry() {
    return meters;
  }

  @Override
  public void updateLastExportedRecordPosition(long position) {
    this.position = position;
  }

  @Override
  public void updateLastExportedRecordPosition(long position, byte[] metadata) {
    this.position = position;
    this.metadata = metadata;
  }

  @Override
  public ScheduledTask scheduleCancellableTask(Duration delay, Runnable task) {
    scheduled.add(task);
    delays.add(delay);
    return () -> scheduled.remove(task);
  }

  @Override
  public Optional<byte[]> readMetadata() {
    return Optional.ofNullable(metadata);
  }

  /** Runs the tasks scheduled so far (those they schedule wait for the next call). */
  void runScheduled() {
    List<Runnable> due = new ArrayList<>(scheduled);
    scheduled.clear();
    due.forEach(Runnable::run);
  }
}
