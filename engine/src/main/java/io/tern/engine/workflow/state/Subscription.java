package io.tern.engine.workflow.state;

import io.tern.engine.state.DbValue;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** A stored message subscription: where it stands (per side's constants) and its value. */
public final class Subscription implements DbValue {
  public int state;
  public final MessageSubscriptionValue value = new MessageSubscriptionValue();

  @Override
  public int length() {
    return Integer.BYTES + value.length();
  }

  @Override
  public void write(MutableDirectBuffer buffer, int offset) {
    buffer.putInt(offset, state, ByteOrder.LITTLE_ENDIAN);
    value.write(buffer, offset + Integer.BYTES);
  }

  @Override
  public void wrap(DirectBuffer buffer, int offset, int length) {
    state = buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN);
    value.wrap(buffer, offset + Integer.BYTES, length - Integer.BYTES);
  }
}
