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

  CommandResponseSink NONE = (streamId, requestId, answer) -> {};
}
