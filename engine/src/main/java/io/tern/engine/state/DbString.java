package io.tern.engine.state;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A UTF-8 string with a big-endian int length prefix, so that it can be the first part of a
 * composite key (strings of the same length sort bytewise; shorter strings sort first).
 */
public final class DbString implements DbKey {
  private byte[] bytes = new byte[0];

  public DbString() {}

  public DbString(String value) {
    set(value);
  }

  public DbString set(String value) {
    this.bytes = value.getBytes(StandardCharsets.UTF_8);
    return this;
  }

  public String get() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Override
  public int length() {
    return Integer.BYTES + bytes.length;
  }

  @Override
  public void write(MutableDirectBuffer buffer, int offset) {
    buffer.putInt(offset, bytes.length, ByteOrder.BIG_ENDIAN);
    buffer.putBytes(offset + Integer.BYTES, bytes);
  }

  @Override
  public void wrap(DirectBuffer buffer, int offset, int length) {
    int size = buffer.getInt(offset, ByteOrder.BIG_ENDIAN);
    if (size < 0 || size != length - Integer.BYTES) {
      throw new IllegalArgumentException(
          "String length prefix " + size + " does not match its " + length + " bytes");
    }
    bytes = new byte[size];
    buffer.getBytes(offset + Integer.BYTES, bytes);
  }

  @Override
  public String toString() {
    return get();
  }
}
