package io.tern.engine.processor;

import io.tern.engine.record.LoggedRecord;

/**
 * Applies one kind of event (value type + intent) to the state: the only code that changes state.
 * Runs on the leader when a processor appends the event, and on every member when it replays the
 * log, so it must depend on nothing but the state and the event (no clock, no randomness; the
 * event's timestamp is the time to use). The event's position is -1 when applied during processing.
 */
@FunctionalInterface
public interface EventApplier {
  void apply(LoggedRecord event);
}
