package io.tern.engine.state;

/**
 * Settings of the partitions' state stores (one RocksDB per partition), the one documented place
 * for them; the README lists each with its default and what it trades.
 *
 * @param disableWal {@code state.rocksdb.disableWal}: skip RocksDB's write-ahead log. Safe here
 *     because the state is rebuilt from the latest snapshot plus the replicated log after a crash,
 *     so a lost memtable costs replay time, never data; saves a write per transaction.
 * @param memoryLimitBytes {@code state.rocksdb.memoryLimitMb}: block cache plus memtables of all
 *     partitions of a broker together (memtables are charged to the cache), so memory stays bounded
 *     whatever the partition count.
 * @param writeBufferBytes size of one memtable; larger means fewer flushes and less write
 *     amplification under repeated updates of the same keys, at the cost of replay time after a
 *     crash (with the WAL off) and memory.
 * @param bloomFilterBitsPerKey bits per key of the SST bloom filters (0 disables them): point reads
 *     of keys that are not there (the common "does this instance still exist?" check) skip files.
 * @param rocksDbDefaults run RocksDB with its own defaults instead of Tern's tuning (no shared
 *     cache or memtable budget, no bloom filters, RocksDB's compaction and compression); only for
 *     the state benchmark's comparison, never for a broker
 */
public record StateConfig(
    boolean disableWal,
    long memoryLimitBytes,
    long writeBufferBytes,
    int bloomFilterBitsPerKey,
    boolean rocksDbDefaults) {

  public static final boolean DEFAULT_DISABLE_WAL = true;
  public static final long DEFAULT_MEMORY_LIMIT_BYTES = 512L * 1024 * 1024;
  public static final long DEFAULT_WRITE_BUFFER_BYTES = 64L * 1024 * 1024;
  public static final int DEFAULT_BLOOM_FILTER_BITS_PER_KEY = 10;

  /** Below this RocksDB cannot hold even one memtable per partition and a useful cache. */
  public static final long MIN_MEMORY_LIMIT_BYTES = 32L * 1024 * 1024;

  public StateConfig {
    if (memoryLimitBytes < MIN_MEMORY_LIMIT_BYTES) {
      throw new IllegalArgumentException(
          "state.rocksdb.memoryLimitMb must be at least "
              + (MIN_MEMORY_LIMIT_BYTES >> 20)
              + ", got "
              + (memoryLimitBytes >> 20));
    }
    if (writeBufferBytes < 1024 * 1024 || writeBufferBytes > memoryLimitBytes / 2) {
      throw new IllegalArgumentException(
          "state write buffer must be between 1 MiB and half the memory limit ("
              + (memoryLimitBytes >> 21)
              + " MiB), got "
              + writeBufferBytes
              + " bytes");
    }
    if (bloomFilterBitsPerKey < 0 || bloomFilterBitsPerKey > 64) {
      throw new IllegalArgumentException(
          "bloom filter bits per key must be in [0, 64], got " + bloomFilterBitsPerKey);
    }
  }

  public static StateConfig defaults() {
    return new StateConfig(
        DEFAULT_DISABLE_WAL,
        DEFAULT_MEMORY_LIMIT_BYTES,
        DEFAULT_WRITE_BUFFER_BYTES,
        DEFAULT_BLOOM_FILTER_BITS_PER_KEY,
        false);
  }

  /**
   * RocksDB's own defaults (with the WAL setting of {@code disableWal}), to measure what Tern's
   * tuning buys.
   */
  public static StateConfig rocksDbDefaults(boolean disableWal) {
    return new StateConfig(
        disableWal, DEFAULT_MEMORY_LIMIT_BYTES, DEFAULT_WRITE_BUFFER_BYTES, 0, true);
  }

  public StateConfig withDisableWal(boolean disable) {
    return new StateConfig(
        disable, memoryLimitBytes, writeBufferBytes, bloomFilterBitsPerKey, rocksDbDefaults);
  }

  public StateConfig withMemoryLimitMb(long megabytes) {
    return new StateConfig(
        disableWal,
        megabytes * 1024 * 1024,
        Math.min(writeBufferBytes, megabytes * 1024 * 1024 / 2),
        bloomFilterBitsPerKey,
        rocksDbDefaults);
  }
}
