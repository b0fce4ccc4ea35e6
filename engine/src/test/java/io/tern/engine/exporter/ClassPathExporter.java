package io.tern.engine.exporter;

import io.camunda.zeebe.exporter.api.Exporter;
import io.camunda.zeebe.exporter.api.context.Context;
import io.camunda.zeebe.protocol.record.Record;

/** An exporter on the broker's class path (no jar): configured by ExporterLoaderTest. */
public class ClassPathExporter implements Exporter {
  public volatile Context context;
  public volatile ClassLoader contextLoader;

  @Override
  public void configure(Context context) {
    this.context = context;
    this.contextLoader = Thread.currentThread().getContextClassLoader();
  }

  @Override
  public void export(Record<?> record) {}
}
