package io.tern.engine.workflow.state;

import io.tern.engine.protocol.Intents;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ValueType;
import io.tern.engine.state.DbValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A live element instance: its lifecycle intent, its active children (and tokens on sequence flows
 * inside it), the job it waits for (-1 if none), the process instance it called (-1 if none) and
 * its record value. A multi-instance body also counts the inner instances it made.
 */
public final class ElementInstance implements DbValue {
  private static final int HEADER_BYTES = 3 * Integer.BYTES + 2 * Long.BYTES;

  /**
   * Its lifecycle intent, stored as its code; an instance before its first lifecycle event holds
   * code 0 ({@link ProcessInstanceIntent#ACTIVATE_ELEMENT}), as it always has.
   */
  public ProcessInstanceIntent state = ProcessInstanceIntent.ACTIVATE_ELEMENT;

  public int activeChildren;
  public long jobKey = -1;

  /** For a call activity: the process instance it called, while that runs; else -1. */
  public long calledInstanceKey = -1;

  /** For a multi-instance body: how many inner instances it has activated so far; else 0. */
  public int loopCounter;

  public final ProcessInstanceValue value = new ProcessInstanceValue();

  @Override
  public int length() {
    return HEADER_BYTES + value.length();
  }

  @Override
  public void write(MutableDirectBuffer buffer, int offset) {
    buffer.putInt(offset, state.code(), ByteOrder.LITTLE_ENDIAN);
    buffer.putInt(offset + Integer.BYTES, activeChildren, ByteOrder.LITTLE_ENDIAN);
    buffer.putLong(offset + 2 * Integer.BYTES, jobKey, ByteOrder.LITTLE_ENDIAN);
    buffer.putLong(
        offset + 2 * Integer.BYTES + Long.BYTES, calledInstanceKey, ByteOrder.LITTLE_ENDIAN);
    buffer.putInt(
        offset + 2 * Integer.BYTES + 2 * Long.BYTES, loopCounter, ByteOrder.LITTLE_ENDIAN);
    value.write(buffer, offset + HEADER_BYTES);
  }

  @Override
  public void wrap(DirectBuffer buffer, int offset, int length) {
    state = stateOf(buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN));
    activeChildren = buffer.getInt(offset + Integer.BYTES, ByteOrder.LITTLE_ENDIAN);
    jobKey = buffer.getLong(offset + 2 * Integer.BYTES, ByteOrder.LITTLE_ENDIAN);
    calledInstanceKey =
        buffer.getLong(offset + 2 * Integer.BYTES + Long.BYTES, ByteOrder.LITTLE_ENDIAN);
    loopCounter =
        buffer.getInt(offset + 2 * Integer.BYTES + 2 * Long.BYTES, ByteOrder.LITTLE_ENDIAN);
    value.wrap(buffer, offset + HEADER_BYTES, length - HEADER_BYTES);
  }

  private static ProcessInstanceIntent stateOf(int code) {
    if (Intents.of(ValueType.PROCESS_INSTANCE.code(), code)
        instanceof ProcessInstanceIntent known) {
      return known;
    }
    throw new IllegalStateException("an element instance's state has the unknown intent " + code);
  }
}
