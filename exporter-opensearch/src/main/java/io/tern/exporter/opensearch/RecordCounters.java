package io.tern.exporter.opensearch;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.camunda.zeebe.protocol.record.ValueType;
import java.io.IOException;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A counter per value type of the records indexed on this partition, which gives each document its
 * {@code sequence}: {@code (partitionId << 51) + counter}, the formula of Zeebe 8.6's exporter, so
 * readers that page through a value type's records by sequence (range queries) read Tern's the same
 * way.
 *
 * <p>The counters travel with the exported position as the exporter's metadata ({@code
 * updateLastExportedRecordPosition(position, metadata)}): a broker that exports again from the
 * stored position starts from the counters stored with it, so a record exported twice gets the same
 * sequence, as it gets the same id.
 */
final class RecordCounters {
  private static final TypeReference<Map<String, Map<String, Long>>> METADATA =
      new TypeReference<>() {};
  private static final String FIELD = "recordCountersByValueType";

  private final Map<ValueType, Long> counters = new EnumMap<>(ValueType.class);

  /** The sequence the next record of this value type gets (does not count it). */
  long nextSequence(int partitionId, ValueType valueType) {
    return ((long) partitionId << 51) + counters.getOrDefault(valueType, 0L) + 1;
  }

  /** Counts a record of this value type. */
  void count(ValueType valueType) {
    counters.merge(valueType, 1L, Long::sum);
  }

  long counter(ValueType valueType) {
    return counters.getOrDefault(valueType, 0L);
  }

  /** The counters as metadata: {@code {"recordCountersByValueType":{"JOB":12,...}}}. */
  byte[] toMetadata(ObjectMapper json) {
    Map<String, Long> byName = new LinkedHashMap<>();
    counters.forEach((type, counter) -> byName.put(type.name(), counter));
    try {
      return json.writeValueAsBytes(Map.of(FIELD, byName));
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the record counters", e);
    }
  }

  /**
   * The counters stored with the last exported position; none if nothing was stored. Metadata it
   * cannot read (another exporter's, under the same id) is ignored: the counters start again.
   */
  static RecordCounters fromMetadata(Optional<byte[]> metadata, ObjectMapper json) {
    RecordCounters counters = new RecordCounters();
    if (metadata.isEmpty() || metadata.get().length == 0) {
      return counters;
    }
    try {
      Map<String, Long> byName = json.readValue(metadata.get(), METADATA).get(FIELD);
      if (byName != null) {
        byName.forEach(
            (name, counter) -> {
              try {
                counters.counters.put(ValueType.valueOf(name), counter);
              } catch (IllegalArgumentException unknown) {
                // a value type of another protocol version: its counter is of no use here
              }
            });
      }
    } catch (IOException | RuntimeException e) {
      return new RecordCounters();
    }
    return counters;
  }
}
