package io.tern.engine.state;

import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * What the state stores of one broker share: one block cache, and a write buffer manager that
 * charges every partition's memtables to that cache, so that {@link StateConfig#memoryLimitBytes()}
 * bounds the total however many partitions the broker hosts. Close after every {@link
 * PartitionState} using it.
 */
public final class StateResources implements AutoCloseable {
  static {
    RocksDB.loadLibrary();
  }

  private final StateConfig config;
  private final Cache cache;
  private final WriteBufferManager writeBufferManager;

  public StateResources(StateConfig config) {
    this.config = config;
    this.cache = new LRUCache(config.memoryLimitBytes());
    // Memtables may take up to half the budget; the cache evicts blocks to make room for them.
    this.writeBufferManager = new WriteBufferManager(config.memoryLimitBytes() / 2, cache);
  }

  public StateConfig config() {
    return config;
  }

  Cache cache() {
    return cache;
  }

  WriteBufferManager writeBufferManager() {
    return writeBufferManager;
  }

  @Override
  public void close() {
    writeBufferManager.close();
    cache.close();
  }
}
