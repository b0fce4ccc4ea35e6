package io.tern.raft.transport;

import io.netty.util.concurrent.EventExecutor;
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

  /**
   * The largest frame this transport sends or accepts (length prefix included); larger messages are
   * dropped. Unlimited for transports that do not frame (in-process ones).
   */
  default int maxFrameBytes() {
    return Integer.MAX_VALUE;
  }

  /**
   * The one thread on which this transport reads and writes every connection, or null when it has
   * several (or none). Raft groups run there need no hand-off between threads for their messages:
   * {@link #send} queues and the receiver is called on that thread.
   */
  default EventExecutor singleEventLoop() {
    return null;
  }

  @Override
  void close();
}
