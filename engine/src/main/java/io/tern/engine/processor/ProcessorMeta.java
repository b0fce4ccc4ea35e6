package io.tern.engine.processor;

import io.tern.engine.record.Keys;
import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbString;
import io.tern.engine.state.PartitionState;

/**
 * The processor's own state, kept in the partition's RocksDB with everything else so that a
 * snapshot carries it: the position of the last processed command (commands at or below it are
 * never processed again, which is what makes processing exactly-once across leader changes) and the
 * highest key counter used by an event (where key generation resumes).
 */
final class ProcessorMeta {
  /** Column family ids below 16 belong to the platform; the engine's start at 16. */
  static final short COLUMN_FAMILY_ID = 0;

  private static final DbString LAST_PROCESSED_POSITION = new DbString("lastProcessedPosition");
  private static final DbString LAST_KEY_COUNTER = new DbString("lastKeyCounter");

  private final ColumnFamily<DbString, DbLong> family;
  private final DbLong value = new DbLong();
  private final int partitionId;
  private long lastProcessedPosition;
  private long lastKeyCounter;
  private long lastIssuedCounter;

  ProcessorMeta(PartitionState state, int partitionId) {
    this.family = state.columnFamily(COLUMN_FAMILY_ID, new DbString(), new DbLong());
    this.partitionId = partitionId;
    reload();
  }

  /** Re-reads the committed values (after a rollback). */
  void reload() {
    lastProcessedPosition = family.get(LAST_PROCESSED_POSITION, value) ? value.get() : -1;
    lastKeyCounter = family.get(LAST_KEY_COUNTER, value) ? value.get() : 0;
    lastIssuedCounter = Math.max(lastIssuedCounter, lastKeyCounter);
  }

  long lastProcessedPosition() {
    return lastProcessedPosition;
  }

  void setLastProcessedPosition(long position) {
    lastProcessedPosition = position;
    family.put(LAST_PROCESSED_POSITION, value.set(position));
  }

  /**
   * A new key of this partition. Not persisted by itself: a key becomes durable when an event
   * carrying it is applied ({@link #observeKey}), on the leader and on replay alike, so leader and
   * followers keep equal state. A key handed out but never used may be handed out again after a
   * leader change, which is harmless since nothing refers to it.
   */
  long nextKey() {
    lastIssuedCounter = Math.max(lastIssuedCounter, lastKeyCounter) + 1;
    return Keys.encode(partitionId, lastIssuedCounter);
  }

  /** Records that an event used {@code key}. */
  void observeKey(long key) {
    if (key < 0 || Keys.partitionOf(key) != partitionId) {
      return;
    }
    long counter = Keys.counterOf(key);
    if (counter > lastKeyCounter) {
      lastKeyCounter = counter;
      family.put(LAST_KEY_COUNTER, value.set(counter));
    }
  }
}
