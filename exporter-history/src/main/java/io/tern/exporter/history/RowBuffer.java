package io.tern.exporter.history;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows of the records exported since the last flush, one per key and table (later records
 * merged into it), and the position of the last record they include. Cleared only after the
 * transaction that writes them commits, so a flush that fails loses nothing.
 */
final class RowBuffer {
  private final Map<Table<?>, Map<Object, Row<?>>> rows = new LinkedHashMap<>();
  private final Set<Long> incidentInstances = new LinkedHashSet<>();
  private final Set<Long> incidentElements = new LinkedHashSet<>();
  private long position = -1;
  private int rowCount;

  <C extends Enum<C> & Column> void add(Row<C> row) {
    Map<Object, Row<?>> table = rows.computeIfAbsent(row.table, t -> new LinkedHashMap<>());
    Object key = row.key();
    @SuppressWarnings("unchecked")
    Row<C> pending = (Row<C>) table.get(key);
    if (pending == null) {
      table.put(key, row);
      rowCount++;
    } else {
      pending.mergeNewer(row);
    }
  }

  /** An incident of this instance and element changed: the flush recounts their incidents. */
  void incidentChanged(long processInstanceKey, long elementInstanceKey) {
    if (processInstanceKey > 0) {
      incidentInstances.add(processInstanceKey);
    }
    if (elementInstanceKey > 0) {
      incidentElements.add(elementInstanceKey);
    }
  }

  /** The record at {@code position} is in the buffer (even if it made no rows). */
  void advanceTo(long position) {
    this.position = position;
  }

  /** The position of the last record buffered, -1 if none since the last {@link #clear()}. */
  long position() {
    return position;
  }

  boolean isEmpty() {
    return position < 0;
  }

  /** Distinct rows waiting, the measure of {@code batchSize}. */
  int rowCount() {
    return rowCount;
  }

  Collection<Row<?>> rows(Table<?> table) {
    Map<Object, Row<?>> byKey = rows.get(table);
    return byKey == null ? List.of() : byKey.values();
  }

  Set<Long> incidentInstances() {
    return incidentInstances;
  }

  Set<Long> incidentElements() {
    return incidentElements;
  }

  void clear() {
    // The tables' maps stay, with their capacity, for the next batch.
    rows.values().forEach(Map::clear);
    incidentInstances.clear();
    incidentElements.clear();
    position = -1;
    rowCount = 0;
  }
}
