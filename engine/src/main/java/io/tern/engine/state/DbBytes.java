package io.tern.engine.state;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Opaque bytes, as a value (not delimited: use it last in a composite key, if at all). */
public final class DbBytes implements DbValue {
  private final UnsafeBuffer view = new UnsafeBuffer(0, 0);

  public DbBytes() {}

  public DbBytes(byte[] bytes) {
    set(bytes);
  }

  public DbBytes set(byte[] bytes) {
    view.wrap(bytes);
    return this;
  }

  /** The bytes, valid until the next {@link #wrap} or {@link #set}. */
  public DirectBuffer view() {
    return view;
  }

  public byte[] toArray() {
    byte[] copy = new byte[view.capacity()];
    view.getBytes(0, copy);
    return copy;
  }

  @Override
  public int length() {
    return view.capacity();
  }

  @Override
  public void write(MutableDirectBuffer buffer, int offset) {
    buffer.putBytes(offset, view, 0, view.capacity());
  }

  @Override
  public void wrap(DirectBuffer buffer, int offset, int length) {
    view.wrap(buffer, offset, length);
  }
}
