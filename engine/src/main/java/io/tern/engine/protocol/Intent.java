package io.tern.engine.protocol;

/**
 * What a record of one value type asks (a command) or says happened (an event). Each value type has
 * its enum of intents, and an intent knows its value type, so a record's value type and intent
 * cannot be paired wrongly. {@link #code()} is what the log and the wire hold, unique within the
 * value type; {@link Intents#of} reads a pair of codes back.
 */
public interface Intent {
  ValueType valueType();

  /** The code in the log and on the wire, unique within {@link #valueType()}. */
  int code();

  /** The constant's name, e.g. {@code COMPLETED}. */
  String name();
}
