package io.tern.raft.transport;

import io.tern.raft.RaftMessage;

/**
 * Where a {@link RaftTransport} delivers inbound messages. Called on transport threads. The
 * receiver owns each message it is given, also if it throws: it calls {@link RaftMessage#release()}
 * once done with it or when dropping it, and reads none of its entries afterwards.
 */
@FunctionalInterface
public interface MessageReceiver {
  void onMessage(int partitionId, RaftMessage message);
}
