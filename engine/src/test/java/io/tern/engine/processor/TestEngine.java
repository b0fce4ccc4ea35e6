package io.tern.engine.processor;

import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordValue;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbBytes;
import io.tern.engine.state.DbLong;
import java.nio.charset.StandardCharsets;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A tiny engine for processor tests: entities with a text value, created, updated, chained
 * (follow-up commands), failed, oversized and scheduled by commands; every event stores its value
 * under its key.
 */
public final class TestEngine {
  public static final int TYPE = 1;
  public static final short ENTITIES = 16;

  // Commands (even) and the events they produce (odd).
  public static final int CREATE = 0;
  public static final int CREATED = 1;
  public static final int UPDATE = 2;
  public static final int UPDATED = 3;
  public static final int CHAIN = 4; // value "n": an event, then CHAIN n-1 until 0
  public static final int CHAINED = 5;
  public static final int FAIL = 6; // appends an event, then throws
  public static final int BIG = 7; // value "n": an event with an n-byte value
  public static final int SCHEDULE = 8; // value "ms": after ms, a FIRE command
  public static final int FIRE = 9;
  public static final int FIRED = 11;
  public static final int OVERFLOW =
      12; // appends an event, then recurses until the stack overflows
  public static final int HOG = 14; // appends an event, then asks for more memory than the JVM has
  public static final int VM_ERROR = 16; // throws an InternalError, as a broken JVM would

  private TestEngine() {}

  public static RecordValue value(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return RecordValue.of(new UnsafeBuffer(bytes), 0, bytes.length);
  }

  public static RecordProcessors create(ProcessingContext context) {
    ColumnFamily<DbLong, DbBytes> entities =
        context.state().columnFamily(ENTITIES, new DbLong(), new DbBytes());
    DbLong key = new DbLong();
    EventApplier store =
        event -> {
          byte[] bytes = new byte[event.value().capacity()];
          event.value().getBytes(0, bytes);
          entities.put(key.set(event.key()), new DbBytes(bytes));
        };
    return new RecordProcessors()
        .onCommand(
            TYPE,
            CREATE,
            (command, result) -> {
              result.appendEvent(context.nextKey(), TYPE, CREATED, copy(command));
              result.respondWithLastEvent();
            })
        .onCommand(
            TYPE,
            UPDATE,
            (command, result) -> {
              if (!entities.exists(key.set(command.key()))) {
                result.reject(RejectionType.NOT_FOUND, "no entity with key " + command.key());
                return;
              }
              result.appendEvent(command.key(), TYPE, UPDATED, copy(command));
              result.respondWithLastEvent();
            })
        .onCommand(
            TYPE,
            CHAIN,
            (command, result) -> {
              int remaining = Integer.parseInt(command.valueAsString());
              result.appendEvent(context.nextKey(), TYPE, CHAINED, copy(command));
              result.respondWithLastEvent();
              if (remaining > 0) {
                result.appendCommand(-1, TYPE, CHAIN, value(Integer.toString(remaining - 1)));
              }
            })
        .onCommand(
            TYPE,
            FAIL,
            (command, result) -> {
              result.appendEvent(context.nextKey(), TYPE, CREATED, copy(command));
              throw new IllegalStateException("failing on purpose");
            })
        .onCommand(
            TYPE,
            OVERFLOW,
            (command, result) -> {
              result.appendEvent(context.nextKey(), TYPE, CREATED, copy(command));
              recurse(0);
            })
        .onCommand(
            TYPE,
            HOG,
            (command, result) -> {
              result.appendEvent(context.nextKey(), TYPE, CREATED, copy(command));
              // More than any heap of a test JVM: an OutOfMemoryError, at once and every time.
              long[][] hog = new long[64][];
              for (int i = 0; i < hog.length; i++) {
                hog[i] = new long[Integer.MAX_VALUE - 16];
              }
              throw new IllegalStateException("allocated " + hog.length);
            })
        .onCommand(
            TYPE,
            VM_ERROR,
            (command, result) -> {
              throw new InternalError("the JVM is broken");
            })
        .onCommand(
            TYPE,
            BIG,
            (command, result) -> {
              int bytes = Integer.parseInt(command.valueAsString());
              result.appendEvent(context.nextKey(), TYPE, CREATED, value("x".repeat(bytes)));
            })
        .onCommand(
            TYPE,
            SCHEDULE,
            (command, result) -> {
              long delayMs = Long.parseLong(command.valueAsString());
              result.appendEvent(context.nextKey(), TYPE, CREATED, copy(command));
              result.sideEffect(
                  () ->
                      context
                          .scheduler()
                          .runDelayed(
                              delayMs,
                              commands -> commands.appendCommand(-1, TYPE, FIRE, value("fire"))));
            })
        .onCommand(
            TYPE,
            FIRE,
            (command, result) -> result.appendEvent(context.nextKey(), TYPE, FIRED, copy(command)))
        .onEvent(TYPE, CREATED, store)
        .onEvent(TYPE, UPDATED, store)
        .onEvent(TYPE, CHAINED, store)
        .onEvent(TYPE, FIRED, store);
  }

  private static int recurse(int depth) {
    return recurse(depth + 1) + 1;
  }

  private static RecordValue copy(LoggedRecord command) {
    byte[] bytes = new byte[command.value().capacity()];
    command.value().getBytes(0, bytes);
    return RecordValue.of(new UnsafeBuffer(bytes), 0, bytes.length);
  }
}
