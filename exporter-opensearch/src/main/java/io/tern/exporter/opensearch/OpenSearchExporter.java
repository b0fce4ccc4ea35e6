package io.tern.exporter.opensearch;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.camunda.zeebe.exporter.api.Exporter;
import io.camunda.zeebe.exporter.api.context.Context;
import io.camunda.zeebe.exporter.api.context.Controller;
import io.camunda.zeebe.exporter.api.context.ScheduledTask;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.ValueType;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;

/**
 * Writes records into OpenSearch (1.x, 2.x) or Elasticsearch (7.8+, 8.x) as Zeebe 8.6's
 * Elasticsearch exporter does: the same indices, ids, routing, aliases and document fields
 * (docs/exporter-opensearch.md).
 *
 * <p>How a record travels: the filter, asked by the director before the record is even mapped, lets
 * through only the record and value types the args enable; {@link #export} writes the record's
 * document ({@link Documents}) straight into the {@link BulkBuffer}; the buffer is sent as one
 * {@code _bulk} request when it holds {@code bulk.size} documents or {@code bulk.memoryLimit}
 * bytes, or {@code bulk.delay} seconds after the last timed flush. Only after the node accepted
 * every document is the buffer cleared and the position of its last record acknowledged (with the
 * sequence counters as metadata).
 *
 * <p>Failures: a flush that fails inside {@code export} throws, and the director calls {@code
 * export} again with the same record after a backoff; the buffer still holds everything (that
 * record included, which is not added twice), so the retry sends the same documents again. A timed
 * flush that fails is logged and tried again at the next delay. Nothing buffered is dropped, and a
 * record is acknowledged only once it is indexed: delivery is at least once, and a document sent
 * twice replaces itself (its id is its partition and position).
 *
 * <p>Threads: every call (export, the timed flush, close) comes from the partition's director
 * thread, so the exporter holds no locks.
 */
public final class OpenSearchExporter implements Exporter {
  private final ObjectMapper json = new ObjectMapper();

  private Context context;
  private Logger log;
  private String id;
  private OpenSearchExporterConfiguration configuration;
  private ExporterMetrics metrics;

  private Controller controller;
  private SearchClient client;
  private IndexNames names;
  private Templates templates;
  private BulkBuffer buffer;
  private RecordCounters counters;
  private ScheduledTask timedFlush;
  private final Set<String> templatesPut = new HashSet<>();
  private long lastBufferedPosition = -1;
  private int timedFlushFailures;

  @Override
  public void configure(Context context) {
    this.context = context;
    log = context.getLogger();
    id = context.getConfiguration().getId();
    OpenSearchExporterConfiguration read;
    try {
      read = context.getConfiguration().instantiate(OpenSearchExporterConfiguration.class);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "exporter '" + id + "': cannot read its args: " + e.getMessage(), e);
    }
    read.validate();
    configuration = read;
    OpenSearchExporterConfiguration accepted = read;
    context.setFilter(
        new Context.RecordFilter() {
          @Override
          public boolean acceptType(RecordType recordType) {
            return accepted.accepts(recordType);
          }

          @Override
          public boolean acceptValue(ValueType valueType) {
            return accepted.accepts(valueType);
          }
        });
  }

  @Override
  public void open(Controller controller) {
    this.controller = controller;
    // Registered here, not in configure: the broker's start-up check configures an instance
    // that is never opened nor closed, and would leave its meters behind.
    metrics = ExporterMetrics.of(context, id);
    OpenSearchExporterConfiguration.IndexConfiguration index = configuration.index;
    names = new IndexNames(index.prefix, index.indexSuffixDatePattern);
    templates = new Templates(json, names, index.shards(), index.replicas());
    buffer = new BulkBuffer(json.getFactory(), new Documents());
    counters = RecordCounters.fromMetadata(controller.readMetadata(), json);
    client =
        new SearchClient(
            configuration.urls(),
            Duration.ofMillis(configuration.requestTimeoutMs),
            configuration.hasAuthentication()
                ? Optional.of(configuration.authentication.username)
                : Optional.empty(),
            configuration.hasAuthentication() ? configuration.password() : Optional.empty(),
            json);
    scheduleTimedFlush();
    log.info("Exporter {} opened: {}", id, configuration);
  }

  @Override
  public void export(Record<?> record) {
    if (configuration.index.createTemplate) {
      putTemplates(record.getBrokerVersion());
    }
    String documentId = IndexNames.id(record);
    long sequence = counters.nextSequence(record.getPartitionId(), record.getValueType());
    if (buffer.add(names.index(record), documentId, IndexNames.routing(record), record, sequence)) {
      counters.count(record.getValueType());
      lastBufferedPosition = record.getPosition();
    }
    if (buffer.size() >= configuration.bulk.size
        || buffer.memoryUsage() >= configuration.bulk.memoryLimit) {
      flush(); // throws if the node did not take them all: the director retries this record
    }
  }

  @Override
  public void close() {
    if (timedFlush != null) {
      timedFlush.cancel();
    }
    if (buffer != null && !buffer.isEmpty()) {
      try {
        flush();
      } catch (RuntimeException e) {
        // The positions of these records were never acknowledged: the next leader exports them.
        log.warn(
            "Exporter {}: {} documents not flushed at close (exported again later): {}",
            id,
            buffer.size(),
            e.getMessage());
      }
    }
    if (client != null) {
      client.close();
    }
    if (metrics != null) {
      metrics.close();
    }
  }

  /**
   * Puts the component template and one index template per enabled value type, once per broker
   * version (the version is part of their names and patterns), before the first document of that
   * version is buffered. A failure throws: the director retries the record, and nothing is indexed
   * into an index without its mapping.
   */
  private void putTemplates(String brokerVersion) {
    if (templatesPut.contains(brokerVersion)) {
      return;
    }
    try {
      client.putComponentTemplate(
          names.componentTemplate(brokerVersion), templates.componentTemplate());
      for (ValueType valueType : ValueType.values()) {
        if (valueType != ValueType.SBE_UNKNOWN
            && valueType != ValueType.NULL_VAL
            && configuration.accepts(valueType)) {
          client.putIndexTemplate(
              names.indexTemplate(valueType, brokerVersion),
              templates.indexTemplate(valueType, brokerVersion));
        }
      }
    } catch (RuntimeException e) {
      metrics.failed();
      throw e;
    }
    templatesPut.add(brokerVersion);
    log.info("Exporter {}: index templates for broker version {} put", id, brokerVersion);
  }

  /** Sends the buffer; on success clears it and acknowledges its last record. */
  private void flush() {
    if (buffer.isEmpty()) {
      return;
    }
    long started = System.nanoTime();
    int count = buffer.size();
    int bytes = buffer.memoryUsage();
    try {
      client.bulk(buffer.bytes(), bytes, count);
    } catch (RuntimeException e) {
      metrics.failed();
      throw e;
    }
    metrics.flushed(System.nanoTime() - started, count, bytes);
    buffer.clear();
    controller.updateLastExportedRecordPosition(lastBufferedPosition, counters.toMetadata(json));
  }

  private void scheduleTimedFlush() {
    timedFlush =
        controller.scheduleCancellableTask(
            Duration.ofSeconds(configuration.bulk.delay), this::timedFlush);
  }

  private void timedFlush() {
    try {
      flush();
      if (timedFlushFailures > 0) {
        log.info(
            "Exporter {}: timed flush works again after {} failed tries", id, timedFlushFailures);
        timedFlushFailures = 0;
      }
    } catch (RuntimeException e) {
      // Once at WARN, then quietly: an outage of the node would otherwise log every delay.
      timedFlushFailures++;
      if (timedFlushFailures == 1) {
        log.warn(
            "Exporter {}: timed flush of {} documents failed (tried again every {} s): {}",
            id,
            buffer.size(),
            configuration.bulk.delay,
            e.getMessage());
      } else {
        log.debug("Exporter {}: timed flush failed again: {}", id, e.getMessage());
      }
    } finally {
      scheduleTimedFlush();
    }
  }
}
