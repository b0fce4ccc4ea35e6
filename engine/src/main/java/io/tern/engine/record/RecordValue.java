package io.tern.engine.record;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** A record's value as it writes itself into a batch. */
public interface RecordValue {
  /** Bytes {@link #write} will write. */
  int length();

  void write(MutableDirectBuffer buffer, int offset);

  /** A value that is {@code buffer[offset, offset + length)}, copied when written. */
  static RecordValue of(DirectBuffer buffer, int offset, int length) {
    return new RecordValue() {
      @Override
      public int length() {
        return length;
      }

      @Override
      public void write(MutableDirectBuffer target, int targetOffset) {
        target.putBytes(targetOffset, buffer, offset, length);
      }
    };
  }

  RecordValue EMPTY = of(new org.agrona.concurrent.UnsafeBuffer(new byte[0]), 0, 0);
}
