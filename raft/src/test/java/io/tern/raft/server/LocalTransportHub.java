package io.tern.raft.server;

import io.tern.raft.RaftMessage;
import io.tern.raft.transport.MessageReceiver;
import io.tern.raft.transport.MessageRules;
import io.tern.raft.transport.RaftTransport;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** In-process transports for tests of the driver: messages go straight to the receiver's queue. */
final class LocalTransportHub {
  private final Map<Integer, Local> members = new ConcurrentHashMap<>();

  RaftTransport transport(int memberId) {
    Local local = new Local(memberId);
    members.put(memberId, local);
    return local;
  }

  private final class Local implements RaftTransport {
    private final int memberId;
    private volatile MessageReceiver receiver;
    private volatile boolean closed;

    Local(int memberId) {
      this.memberId = memberId;
    }

    @Override
    public boolean send(int partitionId, RaftMessage message) {
      String violation = MessageRules.violation(message);
      if (violation != null) {
        // The Netty transport's decoder would refuse it: a correct member never sends one.
        throw new AssertionError("member " + message.from() + " sent a message that " + violation);
      }
      Local target = members.get(message.to());
      if (closed || target == null || target.closed || target.receiver == null) {
        return false;
      }
      target.receiver.onMessage(partitionId, message);
      return true;
    }

    @Override
    public void setReceiver(MessageReceiver receiver) {
      this.receiver = receiver;
    }

    @Override
    public int localMemberId() {
      return memberId;
    }

    @Override
    public void close() {
      closed = true;
      members.remove(memberId, this);
    }
  }
}
