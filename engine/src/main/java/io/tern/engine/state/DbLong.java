package io.tern.engine.state;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A long, big-endian with the sign bit flipped, so that bytewise order is numeric order (negative
 * numbers first).
 */
public final class DbLong implements DbKey {
  private long value;

  public DbLong() {}

  public DbLong(long value) {
    this.value = value;
  }

  public long get() {
    return value;
  }

  public DbLong set(long value) {
    this.value = value;
    return this;
  }

  @Override
  public int length() {
    return Long.BYTES;
  }

  @Override
  public void write(MutableDirectBuffer buffer, int offset) {
    buffer.putLong(offset, value ^ Long.MIN_VALUE, ByteOrder.BIG_ENDIAN);
  }

  @Override
  public void wrap(DirectBuffer buffer, int offset, int length) {
    if (length != Long.BYTES) {
      throw new IllegalArgumentException("A long takes 8 bytes, got " + length);
    }
    value = buffer.getLong(offset, ByteOrder.BIG_ENDIAN) ^ Long.MIN_VALUE;
  }

  @Override
  public String toString() {
    return Long.toString(value);
  }
}
