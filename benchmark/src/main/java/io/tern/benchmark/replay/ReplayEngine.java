package io.tern.benchmark.replay;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.record.RecordValue;
import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbValue;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The smallest engine that makes replay do real work: a CREATE command becomes a CREATED event
 * whose value is stored under a new key, so replaying the log parses every batch and writes every
 * event's value into RocksDB.
 */
final class ReplayEngine {
  // Borrowed from the DEPLOYMENT value type: only which intent a record names matters here.
  static final Intent CREATE = DeploymentIntent.CREATE;
  static final Intent CREATED = DeploymentIntent.CREATED;
  private static final short ENTITIES = 16;

  private ReplayEngine() {}

  static RecordProcessors create(ProcessingContext context) {
    ColumnFamily<DbLong, ValueView> entities =
        context.state().columnFamily(ENTITIES, new DbLong(), new ValueView());
    DbLong key = new DbLong();
    ValueView value = new ValueView();
    return new RecordProcessors()
        .onCommand(
            CREATE,
            (command, result) ->
                result.appendEvent(
                    context.nextKey(),
                    CREATED,
                    RecordValue.of(command.value(), 0, command.value().capacity())))
        .onEvent(CREATED, event -> entities.put(key.set(event.key()), value.of(event.value())));
  }

  /** A value that writes the bytes it views, so an applier stores an event's value without copy. */
  static final class ValueView implements DbValue {
    private DirectBuffer buffer;

    ValueView of(DirectBuffer bytes) {
      this.buffer = bytes;
      return this;
    }

    @Override
    public int length() {
      return buffer.capacity();
    }

    @Override
    public void write(MutableDirectBuffer target, int offset) {
      target.putBytes(offset, buffer, 0, buffer.capacity());
    }

    @Override
    public void wrap(DirectBuffer source, int offset, int length) {
      this.buffer = new org.agrona.concurrent.UnsafeBuffer(source, offset, length);
    }
  }
}
