package io.tern.engine.processor;

import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.JobIntent;
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
  public static final short ENTITIES = 16;

  // The tiny engine borrows the JOB value type's intents: only which one a record names matters
  // here, not what it means to the workflow engine. Commands, and the events they produce:
  public static final Intent CREATE = JobIntent.CREATED;
  public static final Intent CREATED = JobIntent.COMPLETE;
  public static final Intent UPDATE = JobIntent.COMPLETED;
  public static final Intent UPDATED = JobIntent.FAIL;
  public static final Intent CHAIN = JobIntent.FAILED; // value "n": an event, then CHAIN n-1 to 0
  public static final Intent CHAINED = JobIntent.UPDATE_RETRIES;
  public static final Intent FAIL = JobIntent.RETRIES_UPDATED; // appends an event, then throws
  public static final Intent BIG = JobIntent.TIME_OUT; // value "n": an event with an n-byte value
  public static final Intent SCHEDULE = JobIntent.TIMED_OUT; // value "ms": then a FIRE command
  public static final Intent FIRE = JobIntent.RECUR_AFTER_BACKOFF;
  public static final Intent FIRED = JobIntent.CANCELED;

  /** Appends an event, then recurses until the stack overflows. */
  public static final Intent OVERFLOW = JobIntent.THROW_ERROR;

  /** Appends an event, then asks for more memory than the JVM has. */
  public static final Intent HOG = JobIntent.UPDATE_TIMEOUT;

  /** Throws an InternalError, as a broken JVM would. */
  public static final Intent VM_ERROR = JobIntent.YIELD;

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
            CREATE,
            (command, result) -> {
              result.appendEvent(context.nextKey(), CREATED, copy(command));
              result.respondWithLastEvent();
            })
        .onCommand(
            UPDATE,
            (command, result) -> {
              if (!entities.exists(key.set(command.key()))) {
                result.reject(RejectionType.NOT_FOUND, "no entity with key " + command.key());
                return;
              }
              result.appendEvent(command.key(), UPDATED, copy(command));
              result.respondWithLastEvent();
            })
        .onCommand(
            CHAIN,
            (command, result) -> {
              int remaining = Integer.parseInt(command.valueAsString());
              result.appendEvent(context.nextKey(), CHAINED, copy(command));
              result.respondWithLastEvent();
              if (remaining > 0) {
                result.appendCommand(-1, CHAIN, value(Integer.toString(remaining - 1)));
              }
            })
        .onCommand(
            FAIL,
            (command, result) -> {
              result.appendEvent(context.nextKey(), CREATED, copy(command));
              throw new IllegalStateException("failing on purpose");
            })
        .onCommand(
            OVERFLOW,
            (command, result) -> {
              result.appendEvent(context.nextKey(), CREATED, copy(command));
              recurse(0);
            })
        .onCommand(
            HOG,
            (command, result) -> {
              result.appendEvent(context.nextKey(), CREATED, copy(command));
              // More than any heap of a test JVM: an OutOfMemoryError, at once and every time.
              long[][] hog = new long[64][];
              for (int i = 0; i < hog.length; i++) {
                hog[i] = new long[Integer.MAX_VALUE - 16];
              }
              throw new IllegalStateException("allocated " + hog.length);
            })
        .onCommand(
            VM_ERROR,
            (command, result) -> {
              throw new InternalError("the JVM is broken");
            })
        .onCommand(
            BIG,
            (command, result) -> {
              int bytes = Integer.parseInt(command.valueAsString());
              result.appendEvent(context.nextKey(), CREATED, value("x".repeat(bytes)));
            })
        .onCommand(
            SCHEDULE,
            (command, result) -> {
              long delayMs = Long.parseLong(command.valueAsString());
              result.appendEvent(context.nextKey(), CREATED, copy(command));
              result.sideEffect(
                  () ->
                      context
                          .scheduler()
                          .runDelayed(
                              delayMs,
                              commands -> commands.appendCommand(-1, FIRE, value("fire"))));
            })
        .onCommand(
            FIRE, (command, result) -> result.appendEvent(context.nextKey(), FIRED, copy(command)))
        .onEvent(CREATED, store)
        .onEvent(UPDATED, store)
        .onEvent(CHAINED, store)
        .onEvent(FIRED, store);
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
