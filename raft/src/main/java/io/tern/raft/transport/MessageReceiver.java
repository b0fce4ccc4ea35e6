package io.tern.raft.transport;

import io.tern.raft.RaftMessage;

/** Where a {@link RaftTransport} delivers inbound messages. Called on transport threads. */
@FunctionalInterface
public interface MessageReceiver {
  void onMessage(int partitionId, RaftMessage message);
}
