package io.tern.engine.processor;

import io.tern.engine.record.LoggedRecord;

/**
 * Receives the answers to client commands, on the processor thread, only once the record that
 * answers is committed: a client never sees a result that a leader change could erase. The record
 * is a view valid during the call only.
 */
@FunctionalInterface
public interface CommandResponseSink {
  void respond(int requestStreamId, long requestId, LoggedRecord answer);

  /**
   * The client command of that request was processed: its result (events, rejection, follow-up
   * commands) is written to the log. Its answer may come much later, or never (a create that awaits
   * the instance's end answers when the instance ends), so this is where a command stops counting
   * as in flight for backpressure. Called on the processor thread, at most once per command and
   * leadership (a new leader processes commands its predecessor left unprocessed).
   *
   * @param key the key of the first record the processing wrote (a created instance's key), or -1
   */
  default void processed(int requestStreamId, long requestId, long key) {}

  CommandResponseSink NONE = (streamId, requestId, answer) -> {};
}
