package io.tern.engine.state;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** An empty value, for index entries whose key says it all. */
public final class DbNil implements DbValue {
  @Override
  public int length() {
    return 0;
  }

  @Override
  public void write(MutableDirectBuffer buffer, int offset) {}

  @Override
  public void wrap(DirectBuffer buffer, int offset, int length) {}
}
