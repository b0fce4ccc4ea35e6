package io.tern.exporter.history;

import java.util.List;

/**
 * One history table: its name, its columns (an enum's constants, in order) and how a row is
 * written. A <em>versioned</em> table's rows change as records arrive and take a newer record's
 * values only ({@link Column.Merge#POSITION}); an <em>insert-only</em> table's rows are written
 * once (a definition, a history entry) and a second write of the same key changes nothing.
 */
final class Table<C extends Enum<C> & Column> {
  final String name;
  final List<C> columns;
  final List<C> keys;
  final boolean versioned;

  private Table(String name, Class<C> columnType, boolean versioned) {
    this.name = name;
    this.columns = List.of(columnType.getEnumConstants());
    this.keys = columns.stream().filter(c -> c.merge() == Column.Merge.KEY).toList();
    this.versioned = versioned;
    if (keys.isEmpty()) {
      throw new IllegalArgumentException(name + " has no key column");
    }
  }

  static <C extends Enum<C> & Column> Table<C> versioned(String name, Class<C> columns) {
    return new Table<>(name, columns, true);
  }

  static <C extends Enum<C> & Column> Table<C> insertOnly(String name, Class<C> columns) {
    return new Table<>(name, columns, false);
  }

  Row<C> newRow() {
    return new Row<>(this);
  }

  @Override
  public String toString() {
    return name;
  }
}
