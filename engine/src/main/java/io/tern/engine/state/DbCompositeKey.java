package io.tern.engine.state;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Two keys one after the other, e.g. (due date, timer key) so that a scan of the first part finds
 * every timer due by then, in order. The first part must have a fixed length or delimit itself
 * ({@link DbLong}, {@link DbString}).
 */
public final class DbCompositeKey<A extends DbKey, B extends DbKey> implements DbKey {
  private final A first;
  private final B second;

  public DbCompositeKey(A first, B second) {
    this.first = first;
    this.second = second;
  }

  public A first() {
    return first;
  }

  public B second() {
    return second;
  }

  @Override
  public int length() {
    return first.length() + second.length();
  }

  @Override
  public void write(MutableDirectBuffer buffer, int offset) {
    first.write(buffer, offset);
    second.write(buffer, offset + first.length());
  }

  @Override
  public void wrap(DirectBuffer buffer, int offset, int length) {
    int firstLength = firstLength(buffer, offset, length);
    first.wrap(buffer, offset, firstLength);
    second.wrap(buffer, offset + firstLength, length - firstLength);
  }

  /** The first part's encoded length: fixed for a long, from its prefix for a string. */
  private int firstLength(DirectBuffer buffer, int offset, int length) {
    if (first instanceof DbLong) {
      return Long.BYTES;
    }
    if (first instanceof DbString) {
      return Integer.BYTES + buffer.getInt(offset, java.nio.ByteOrder.BIG_ENDIAN);
    }
    if (first instanceof DbCompositeKey<?, ?>) {
      throw new UnsupportedOperationException("nest composite keys in the second part");
    }
    throw new UnsupportedOperationException(
        first.getClass().getSimpleName() + " cannot be the first part of a composite key");
  }

  @Override
  public String toString() {
    return "(" + first + ", " + second + ")";
  }
}
