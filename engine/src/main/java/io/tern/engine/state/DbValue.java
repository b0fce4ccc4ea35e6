package io.tern.engine.state;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A value in the state store, as a reusable flyweight: it writes itself into a buffer and reads
 * itself back by wrapping one (the bytes may be reused after the call, so copy what must live
 * longer).
 */
public interface DbValue {
  /** Bytes {@link #write} will write. */
  int length();

  void write(MutableDirectBuffer buffer, int offset);

  void wrap(DirectBuffer buffer, int offset, int length);
}
