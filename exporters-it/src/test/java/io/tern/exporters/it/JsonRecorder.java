package io.tern.exporters.it;

import io.camunda.zeebe.exporter.api.Exporter;
import io.camunda.zeebe.exporter.api.context.Controller;
import io.camunda.zeebe.protocol.record.Record;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test exporter that keeps the {@code toJson()} of every record the broker hands it, by position:
 * what the OpenSearch exporter's documents are compared with.
 */
public final class JsonRecorder implements Exporter {
  static final Map<Long, String> RECORDS = new ConcurrentHashMap<>();

  private Controller controller;

  @Override
  public void open(Controller controller) {
    this.controller = controller;
  }

  @Override
  public void export(Record<?> record) {
    RECORDS.put(record.getPosition(), record.toJson());
    controller.updateLastExportedRecordPosition(record.getPosition());
  }
}
