package io.tern.raft.transport;

import io.tern.raft.RaftMessage;

/**
 * Carries Raft messages between brokers. One broker hosts many partitions (one Raft group each);
 * every message travels with the id of its partition, and {@link RaftMessage#to()} names the
 * destination broker (member).
 */
public interface RaftTransport extends AutoCloseable {
  /**
   * Queues {@code message} for member {@code message.to()}; never blocks. Returns false if dropped
   * (queue full, unknown member, closed).
   */
  boolean send(int partitionId, RaftMessage message);

  /** Receives inbound messages on transport threads; must not block. Set before start. */
  void setReceiver(MessageReceiver receiver);

  int localMemberId();

  @Override
  void close();
}
