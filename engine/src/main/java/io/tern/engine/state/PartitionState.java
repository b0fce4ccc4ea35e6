package io.tern.engine.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.agrona.collections.IntHashSet;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Checkpoint;
import org.rocksdb.CompressionType;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * One partition's state: a RocksDB in its own directory (which may live on another mount than the
 * data directory, e.g. tmpfs), used from the partition's processing thread only. All changes go
 * through {@link #transaction()}; logical column families ({@link ColumnFamily}) share the one
 * RocksDB column family, told apart by a two-byte key prefix, so that a partition has one set of
 * memtables however many kinds of state it keeps.
 */
public final class PartitionState implements AutoCloseable {
  private final Path directory;
  private final Options options;
  private final BloomFilter bloomFilter;
  private final WriteOptions writeOptions;
  private final ReadOptions readOptions;
  private final RocksDB db;
  private boolean closed;
  private final StateTransaction transaction;
  private final IntHashSet columnFamilyIds = new IntHashSet();

  /**
   * Opens (creating if needed) the state in {@code directory}.
   *
   * @throws StateException naming the directory if RocksDB cannot open it
   */
  public PartitionState(Path directory, StateResources resources) {
    this.directory = directory;
    StateConfig config = resources.config();
    if (config.rocksDbDefaults()) {
      this.bloomFilter = null;
      this.options = new Options().setCreateIfMissing(true);
    } else {
      BlockBasedTableConfig table =
          new BlockBasedTableConfig()
              .setBlockCache(resources.cache())
              .setCacheIndexAndFilterBlocks(true)
              .setPinL0FilterAndIndexBlocksInCache(true);
      this.bloomFilter =
          config.bloomFilterBitsPerKey() > 0
              ? new BloomFilter(config.bloomFilterBitsPerKey())
              : null;
      if (bloomFilter != null) {
        table.setFilterPolicy(bloomFilter);
      }
      this.options =
          new Options()
              .setCreateIfMissing(true)
              .setWriteBufferManager(resources.writeBufferManager())
              .setWriteBufferSize(config.writeBufferBytes())
              .setTableFormatConfig(table)
              // Repeated updates of the same keys: compaction drops the overwritten versions, and
              // dynamic level sizes keep space amplification near 1.1.
              .setLevelCompactionDynamicLevelBytes(true)
              .setCompressionType(CompressionType.LZ4_COMPRESSION)
              .setBottommostCompressionType(CompressionType.ZSTD_COMPRESSION)
              // Memtables are flushed on close, so a clean shutdown loses nothing with the WAL off.
              .setAvoidFlushDuringShutdown(false);
    }
    this.writeOptions = new WriteOptions().setDisableWAL(config.disableWal());
    this.readOptions = new ReadOptions();
    try {
      Files.createDirectories(directory);
      this.db = RocksDB.open(options, directory.toString());
    } catch (IOException e) {
      closeOptions();
      throw new UncheckedIOException("Cannot create the state directory " + directory, e);
    } catch (RocksDBException e) {
      closeOptions();
      throw new StateException("Cannot open the partition state in " + directory, e);
    }
    this.transaction = new StateTransaction(db, readOptions, writeOptions);
  }

  public Path directory() {
    return directory;
  }

  /**
   * A typed view of the keys with prefix {@code id}; {@code key} and {@code value} are the
   * instances it decodes into while iterating.
   *
   * @throws IllegalArgumentException if the id is already taken in this state
   */
  public <K extends DbKey, V extends DbValue> ColumnFamily<K, V> columnFamily(
      short id, K key, V value) {
    if (id < 0) {
      throw new IllegalArgumentException("Column family ids are not negative, got " + id);
    }
    if (!columnFamilyIds.add(id)) {
      throw new IllegalArgumentException("Column family id " + id + " is already in use");
    }
    return new ColumnFamily<>(transaction, id, key, value);
  }

  /**
   * Another view of a column family that a component of the engine owns, to read it (diagnostics):
   * it does not claim {@code id}, and its user must not write through it.
   */
  public <K extends DbKey, V extends DbValue> ColumnFamily<K, V> readView(
      short id, K key, V value) {
    if (id < 0) {
      throw new IllegalArgumentException("Column family ids are not negative, got " + id);
    }
    return new ColumnFamily<>(transaction, id, key, value);
  }

  /**
   * The partition's one transaction: changes are visible to reads through it at once and to
   * everyone after {@link StateTransaction#commit()}. Reused: the processing thread commits or
   * rolls back before it starts the next.
   */
  public StateTransaction transaction() {
    return transaction;
  }

  /**
   * Visits every committed key and value in key order, all column families together (for tests that
   * compare states, and diagnostics).
   */
  public void forEachRaw(java.util.function.BiConsumer<byte[], byte[]> visitor) {
    try (org.rocksdb.RocksIterator iterator = db.newIterator(readOptions)) {
      for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
        visitor.accept(iterator.key(), iterator.value());
      }
    }
  }

  /**
   * Writes a consistent copy of the committed state to {@code target} (which must not exist) by
   * hard-linking RocksDB's files where possible; the base of a snapshot.
   */
  public void checkpoint(Path target) {
    try (Checkpoint checkpoint = Checkpoint.create(db)) {
      // With the WAL off, committed writes may still be in memtables only: flush them first.
      try (org.rocksdb.FlushOptions flush = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
        db.flush(flush);
      }
      checkpoint.createCheckpoint(target.toString());
    } catch (RocksDBException e) {
      throw new StateException("Cannot write a checkpoint of " + directory + " to " + target, e);
    }
  }

  /**
   * A numeric RocksDB property (see {@link StateMetrics}), or NaN if unknown or closed. Safe from
   * any thread: it and {@link #close()} exclude each other, so a metrics scrape never reads a
   * database being freed.
   */
  public synchronized double longProperty(String name) {
    if (closed) {
      return Double.NaN;
    }
    try {
      return db.getLongProperty(name);
    } catch (RocksDBException e) {
      return Double.NaN;
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    transaction.close();
    db.close();
    closeOptions();
  }

  private void closeOptions() {
    readOptions.close();
    writeOptions.close();
    options.close();
    if (bloomFilter != null) {
      bloomFilter.close();
    }
  }
}
