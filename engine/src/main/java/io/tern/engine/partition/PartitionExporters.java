package io.tern.engine.partition;

import io.tern.engine.exporter.ExportRecordMapper;
import io.tern.engine.exporter.ExporterDirector;
import io.tern.engine.exporter.LoadedExporter;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The exporters a partition runs on its leader: the broker's, as loaded and configured at start,
 * the mapper of each partition's records (by partition id) and the director's timings.
 */
public record PartitionExporters(
    List<LoadedExporter> exporters,
    IntFunction<ExportRecordMapper> mappers,
    ExporterDirector.Settings settings) {
  /** No exporters: no director, and the log's compaction is bounded by snapshots alone. */
  public static final PartitionExporters NONE =
      new PartitionExporters(
          List.of(), partition -> ExportRecordMapper.NONE, ExporterDirector.Settings.defaults());

  public PartitionExporters {
    exporters = List.copyOf(exporters);
  }
}
