package io.tern.exporter.history;

/**
 * What the exporter measures. Recorded in the broker's Micrometer registry when the context offers
 * one ({@link MicrometerHistoryMetrics}); otherwise nothing is recorded and no Micrometer class is
 * loaded.
 */
interface HistoryMetrics {
  HistoryMetrics NONE = new HistoryMetrics() {};

  /** A flush committed {@code rows} rows in {@code nanos}. */
  default void flushed(int rows, long nanos) {}

  /** A flush (or a retention run) failed. */
  default void failed() {}

  /** A retention run deleted {@code instances} finished instances. */
  default void deleted(int instances) {}

  static HistoryMetrics of(Object registry, String exporterId, int partitionId) {
    return registry == null
        ? NONE
        : new MicrometerHistoryMetrics(registry, exporterId, partitionId);
  }
}
