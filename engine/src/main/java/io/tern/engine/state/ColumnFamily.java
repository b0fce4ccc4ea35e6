package io.tern.engine.state;

import java.nio.ByteOrder;
import java.util.Arrays;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * A typed kind of state (instances, jobs, timers, ...): the keys of the partition's RocksDB that
 * start with this family's two-byte id, read and written through the partition's {@link
 * StateTransaction}. Not thread-safe, like the transaction.
 *
 * <p>{@code key} and {@code value} are flyweights owned by the family: iteration decodes into them,
 * so a visitor must copy what it keeps. Reads and writes take the caller's own instances.
 *
 * <p>Keys and values cross into RocksDB as byte arrays (its Java API copies either way); an
 * allocation-free path is for when a benchmark shows it matters.
 */
public final class ColumnFamily<K extends DbKey, V extends DbValue> {
  /** Visits entries in key order; return false to stop. */
  @FunctionalInterface
  public interface Visitor<K, V> {
    boolean visit(K key, V value);
  }

  private static final int ID_BYTES = Short.BYTES;

  private final StateTransaction transaction;
  private final short id;
  private final K key;
  private final V value;
  private final ExpandableArrayBuffer scratch = new ExpandableArrayBuffer(64);
  private final UnsafeBuffer view = new UnsafeBuffer(0, 0);

  ColumnFamily(StateTransaction transaction, short id, K key, V value) {
    this.transaction = transaction;
    this.id = id;
    this.key = key;
    this.value = value;
  }

  /**
   * Reads the value of {@code key} into {@code into}; false (and {@code into} untouched) if none.
   */
  public boolean get(DbKey key, V into) {
    byte[] bytes = transaction.get(encodeKey(key));
    if (bytes == null) {
      return false;
    }
    view.wrap(bytes);
    into.wrap(view, 0, bytes.length);
    return true;
  }

  public boolean exists(DbKey key) {
    return transaction.get(encodeKey(key)) != null;
  }

  /** Inserts or overwrites. */
  public void put(DbKey key, DbValue value) {
    byte[] keyBytes = encodeKey(key);
    int length = value.length();
    value.write(scratch, 0);
    byte[] valueBytes = new byte[length];
    scratch.getBytes(0, valueBytes);
    transaction.put(keyBytes, valueBytes);
  }

  public void delete(DbKey key) {
    transaction.delete(encodeKey(key));
  }

  /** Visits every entry of this family in key order. */
  public void forEach(Visitor<K, V> visitor) {
    scan(idOnly(), visitor);
  }

  /**
   * Visits the entries whose key starts with {@code prefix} (the first part of a composite key), in
   * key order. The visitor may put and delete entries of any family meanwhile. An entry deleted
   * ahead of the scan is not visited and one updated ahead is visited with its new value; entries
   * inserted during the scan are not visited (so a visitor that re-inserts cannot loop).
   */
  public void forEachWithPrefix(DbKey prefix, Visitor<K, V> visitor) {
    scan(encodeKey(prefix), visitor);
  }

  /**
   * Visits the entries from {@code start} (inclusive) to the end of this family, in key order, with
   * the same guarantees as {@link #forEachWithPrefix}. A due-date index scanned from the last time
   * it was scanned up to skips the tombstones of everything it deleted before, which RocksDB would
   * otherwise step over on every scan until compaction drops them.
   */
  public void forEachFrom(DbKey start, Visitor<K, V> visitor) {
    scan(encodeKey(start), idOnly(), visitor);
  }

  private void scan(byte[] prefix, Visitor<K, V> visitor) {
    scan(prefix, prefix, visitor);
  }

  private void scan(byte[] start, byte[] prefix, Visitor<K, V> visitor) {
    UnsafeBuffer keyView = new UnsafeBuffer(0, 0);
    UnsafeBuffer valueView = new UnsafeBuffer(0, 0);
    // RocksDB's iterator over the write batch does not see writes made after it was opened. The
    // transaction remembers what the visitor writes meanwhile: an entry deleted since is skipped,
    // one updated since is visited with its current value.
    transaction.beginScan();
    byte[] bound = upperBound(prefix);
    try (Slice upper = new Slice(bound == null ? idOnly() : bound);
        ReadOptions options = new ReadOptions();
        RocksIterator iterator =
            transaction.newIterator(
                bound == null ? options : options.setIterateUpperBound(upper))) {
      for (iterator.seek(start); iterator.isValid(); iterator.next()) {
        byte[] keyBytes = iterator.key();
        if (!startsWith(keyBytes, prefix)) {
          return;
        }
        byte[] valueBytes = transaction.writtenDuringScan(keyBytes);
        if (valueBytes == StateTransaction.DELETED) {
          continue;
        }
        if (valueBytes == null) {
          valueBytes = iterator.value();
        }
        keyView.wrap(keyBytes);
        valueView.wrap(valueBytes);
        key.wrap(keyView, ID_BYTES, keyBytes.length - ID_BYTES);
        value.wrap(valueView, 0, valueBytes.length);
        if (!visitor.visit(key, value)) {
          return;
        }
      }
    } finally {
      transaction.endScan();
    }
  }

  /**
   * The smallest key above every key starting with {@code prefix}: the prefix with its last byte
   * that is not 0xFF incremented (and what follows dropped); null if every byte is 0xFF. Family ids
   * are not negative, so a family's keys always have a bound.
   */
  static byte[] upperBound(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if (prefix[i] != (byte) 0xFF) {
        byte[] bound = Arrays.copyOf(prefix, i + 1);
        bound[i]++;
        return bound;
      }
    }
    return null; // all 0xFF: nothing bounds it; the prefix check alone ends the scan
  }

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    return bytes.length >= prefix.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }

  private byte[] idOnly() {
    byte[] bytes = new byte[ID_BYTES];
    bytes[0] = (byte) (id >> 8);
    bytes[1] = (byte) id;
    return bytes;
  }

  private byte[] encodeKey(DbKey key) {
    int length = ID_BYTES + key.length();
    scratch.putShort(0, id, ByteOrder.BIG_ENDIAN);
    key.write(scratch, ID_BYTES);
    byte[] bytes = new byte[length];
    scratch.getBytes(0, bytes);
    return bytes;
  }
}
