package io.tern.engine.record;

/**
 * Entity keys carry their partition, as Zeebe's do: {@code (partitionId << 51) + counter}, so any
 * key names the partition that owns the entity and a gateway can route a command by key alone.
 */
public final class Keys {
  /** The key of records about no particular entity. */
  public static final long NO_KEY = -1;

  public static final int COUNTER_BITS = 51;
  public static final long MAX_COUNTER = (1L << COUNTER_BITS) - 1;

  /** Keeps keys positive: 12 bits of partition id below the sign bit. */
  public static final int MAX_PARTITION_ID = (1 << (Long.SIZE - 1 - COUNTER_BITS)) - 1;

  private Keys() {}

  public static long encode(int partitionId, long counter) {
    if (partitionId < 0 || partitionId > MAX_PARTITION_ID) {
      throw new IllegalArgumentException(
          "A partition id is within [0, " + MAX_PARTITION_ID + "], got " + partitionId);
    }
    if (counter < 0 || counter > MAX_COUNTER) {
      throw new IllegalArgumentException(
          "A key counter is within [0, " + MAX_COUNTER + "], got " + counter);
    }
    return ((long) partitionId << COUNTER_BITS) + counter;
  }

  /** The partition that owns {@code key}. */
  public static int partitionOf(long key) {
    return (int) (key >>> COUNTER_BITS);
  }

  public static long counterOf(long key) {
    return key & MAX_COUNTER;
  }
}
