package io.tern.engine.state;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * RocksDB's own figures for a partition's state as gauges {@code tern.state.rocksdb.*} (tag {@code
 * partition}), read from the open database at scrape time: the sizes and counts that tell whether
 * memory limits, compaction and write stalls behave.
 */
public final class StateMetrics {
  /** Meter name suffix, RocksDB property, and what it says. */
  record Property(String meter, String property, String description) {}

  static final List<Property> PROPERTIES =
      List.of(
          new Property("keys", "rocksdb.estimate-num-keys", "estimated number of keys"),
          new Property("memtable.bytes", "rocksdb.cur-size-all-mem-tables", "bytes in memtables"),
          new Property(
              "live.data.bytes", "rocksdb.estimate-live-data-size", "estimated live data bytes"),
          new Property("sst.bytes", "rocksdb.total-sst-files-size", "bytes of all SST files"),
          new Property(
              "block.cache.bytes",
              "rocksdb.block-cache-usage",
              "bytes in the block cache (shared by the broker's partitions)"),
          new Property(
              "pending.compaction.bytes",
              "rocksdb.estimate-pending-compaction-bytes",
              "bytes compaction still has to rewrite"),
          new Property(
              "running.compactions", "rocksdb.num-running-compactions", "compactions running"),
          new Property("write.stopped", "rocksdb.is-write-stopped", "1 while RocksDB stops writes"),
          new Property(
              "delayed.write.rate",
              "rocksdb.actual-delayed-write-rate",
              "the write rate RocksDB slows writes to (0: not delayed)"));

  private StateMetrics() {}

  /**
   * Registers the gauges for one partition; {@code read} gives a property's current value (NaN
   * while no state is open).
   */
  public static <T> void register(
      MeterRegistry registry, int partitionId, T source, ReadProperty<T> read) {
    Tags tags = Tags.of("partition", Integer.toString(partitionId));
    for (Property property : PROPERTIES) {
      ToDoubleFunction<T> value = s -> read.read(s, property.property());
      Gauge.builder("tern.state.rocksdb." + property.meter(), source, value)
          .description(property.description())
          .tags(tags)
          .register(registry);
    }
  }

  /** How a property is read from the source. */
  @FunctionalInterface
  public interface ReadProperty<T> {
    double read(T source, String property);
  }
}
