package io.tern.engine.state;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatchWithIndex;
import org.rocksdb.WriteOptions;

/**
 * The changes of one command being processed, kept in an indexed write batch: reads through the
 * transaction see them at once (read-your-writes), other readers only after {@link #commit()}, and
 * {@link #rollback()} forgets them, as processing a command that fails must. Single-threaded, like
 * the processor that owns it.
 *
 * <p>Raw byte-array keys and values; {@link ColumnFamily} gives them types.
 */
public final class StateTransaction implements AutoCloseable {
  private final RocksDB db;
  private final ReadOptions readOptions;
  private final WriteOptions writeOptions;

  // overwriteKey: a key written twice holds its last value, which reads and iterators must see.
  private final WriteBatchWithIndex batch = new WriteBatchWithIndex(true);

  StateTransaction(RocksDB db, ReadOptions readOptions, WriteOptions writeOptions) {
    this.db = db;
    this.readOptions = readOptions;
    this.writeOptions = writeOptions;
  }

  /** The value of {@code key} as this transaction sees it, or null. */
  byte[] get(byte[] key) {
    try {
      return batch.getFromBatchAndDB(db, readOptions, key);
    } catch (RocksDBException e) {
      throw new StateException("State read failed for key " + Arrays.toString(key), e);
    }
  }

  /** Marks a value deleted in {@link #writtenDuringScan}. */
  static final byte[] DELETED = new byte[0];

  // Writes made while a scan runs, by key: its iterator, opened before them, cannot see them.
  private final Map<ByteBuffer, byte[]> writtenDuringScan = new HashMap<>();
  private int openScans;

  void beginScan() {
    openScans++;
  }

  void endScan() {
    if (--openScans == 0) {
      writtenDuringScan.clear();
    }
  }

  /**
   * What was written to {@code key} since the oldest open scan began: the value, {@link #DELETED},
   * or null if nothing (then the scan's iterator shows the current value).
   */
  byte[] writtenDuringScan(byte[] key) {
    return writtenDuringScan.isEmpty() ? null : writtenDuringScan.get(ByteBuffer.wrap(key));
  }

  void put(byte[] key, byte[] value) {
    if (openScans > 0) {
      writtenDuringScan.put(ByteBuffer.wrap(key), value);
    }
    try {
      batch.put(key, value);
    } catch (RocksDBException e) {
      throw new StateException("State write failed for key " + Arrays.toString(key), e);
    }
  }

  void delete(byte[] key) {
    if (openScans > 0) {
      writtenDuringScan.put(ByteBuffer.wrap(key), DELETED);
    }
    try {
      batch.delete(key);
    } catch (RocksDBException e) {
      throw new StateException("State delete failed for key " + Arrays.toString(key), e);
    }
  }

  /**
   * An iterator over the committed state overlaid with this transaction's changes as they were when
   * it was opened (later writes are not seen by it). Close it after use.
   */
  RocksIterator newIterator() {
    return batch.newIteratorWithBase(db.newIterator(readOptions));
  }

  /**
   * As {@link #newIterator()}, but the committed state's side stops before {@code upperBound}
   * (exclusive): a seek into a range with no live key then stops there instead of stepping over
   * every tombstone that follows it. {@code scanOptions} must carry that bound and outlive the
   * iterator.
   */
  RocksIterator newIterator(ReadOptions scanOptions) {
    return batch.newIteratorWithBase(db.newIterator(scanOptions));
  }

  /** True if nothing was written since the last commit or rollback. */
  public boolean isEmpty() {
    return batch.count() == 0;
  }

  /** Makes the changes durable (as the WAL setting allows) and visible; starts afresh. */
  public void commit() {
    if (batch.count() == 0) {
      return;
    }
    try {
      db.write(writeOptions, batch);
    } catch (RocksDBException e) {
      throw new StateException("State commit of " + batch.count() + " changes failed", e);
    }
    batch.clear();
  }

  /** Forgets the changes made since the last commit. */
  public void rollback() {
    batch.clear();
    writtenDuringScan.clear();
  }

  @Override
  public void close() {
    batch.close();
  }
}
