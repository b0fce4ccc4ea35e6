package io.tern.raft.transport;

import io.tern.raft.RaftMessage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An in-memory {@link RaftTransport} that records what it is asked to send, and when. */
final class RecordingTransport implements RaftTransport {
  record Sent(int partitionId, RaftMessage message, long atNanos) {}

  private final int localMemberId;
  final List<Sent> sent = new CopyOnWriteArrayList<>();
  volatile boolean closed;

  RecordingTransport(int localMemberId) {
    this.localMemberId = localMemberId;
  }

  @Override
  public boolean send(int partitionId, RaftMessage message) {
    sent.add(new Sent(partitionId, message, System.nanoTime()));
    return true;
  }

  @Override
  public void setReceiver(MessageReceiver receiver) {}

  @Override
  public int localMemberId() {
    return localMemberId;
  }

  @Override
  public void close() {
    closed = true;
  }

  List<Sent> sentTo(int member) {
    return sent.stream().filter(s -> s.message().to() == member).toList();
  }
}
