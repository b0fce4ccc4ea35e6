package io.tern.exporter.history;

import java.util.Arrays;
import java.util.List;

/**
 * A row waiting in the buffer: a value per column, null where the records seen so far did not say.
 * Rows for the same key merge in the buffer ({@link #mergeNewer}) exactly as the database's upsert
 * merges them into the stored row, so a batch writes each key once.
 */
final class Row<C extends Enum<C> & Column> {
  final Table<C> table;
  private final Object[] values;
  private boolean created;

  Row(Table<C> table) {
    this.table = table;
    this.values = new Object[table.columns.size()];
  }

  Row<C> set(C column, Object value) {
    values[column.ordinal()] = value;
    return this;
  }

  Object get(C column) {
    return values[column.ordinal()];
  }

  /**
   * The key as a map key: the value of a one-column key itself (no list to allocate for the rows of
   * most tables), else the list of the key's values.
   */
  Object key() {
    List<C> keys = table.keys;
    if (keys.size() == 1) {
      return values[keys.get(0).ordinal()];
    }
    Object[] key = new Object[keys.size()];
    for (int i = 0; i < key.length; i++) {
      key[i] = values[keys.get(i).ordinal()];
    }
    return Arrays.asList(key);
  }

  /**
   * Marks the row as made by the record that created its key (an element's activation, a job's
   * creation...): no record before it in the log has this key, so a store that holds exactly the
   * records up to a position before it holds no row for it, and the row can be inserted rather than
   * merged ({@link HistoryWriter}).
   */
  Row<C> created() {
    created = true;
    return this;
  }

  boolean isCreated() {
    return created;
  }

  /**
   * Folds {@code newer} (a later record's row for the same key) into this one, by each column's
   * {@link Column.Merge} rule; an insert-only table keeps what it had.
   */
  void mergeNewer(Row<C> newer) {
    if (!table.versioned) {
      return;
    }
    for (C column : table.columns) {
      int i = column.ordinal();
      Object older = values[i];
      Object later = newer.values[i];
      switch (column.merge()) {
        case KEY -> {}
        case FIRST -> values[i] = older != null ? older : later;
        case LAST, POSITION -> values[i] = later != null ? later : older;
        case CURRENT -> values[i] = later;
      }
    }
  }

  @Override
  public String toString() {
    return table.name + Arrays.toString(values);
  }
}
