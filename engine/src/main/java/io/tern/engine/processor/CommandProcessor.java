package io.tern.engine.processor;

import io.tern.engine.record.LoggedRecord;

/**
 * Processes one kind of command (value type + intent) on the leader: reads state, decides, and puts
 * what follows into {@code result} (events, which change state through their appliers at once,
 * follow-up commands, a rejection, a response, side effects). It never writes state itself: replay
 * must reach the same state from the events alone.
 */
@FunctionalInterface
public interface CommandProcessor {
  void process(LoggedRecord command, ProcessingResult result);
}
