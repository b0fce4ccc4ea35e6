package io.tern.raft.server;

import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.Releasable;
import io.tern.raft.transport.MessageReceiver;
import io.tern.raft.transport.MessageRules;
import io.tern.raft.transport.RaftTransport;
import java.util.AbstractList;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * In-process transports for tests of the driver: messages go straight to the receiver's queue, with
 * the entries of append requests borrowed as the Netty transport's are (see {@link #asReceived}).
 */
final class LocalTransportHub {
  private final Map<Integer, Local> members = new ConcurrentHashMap<>();
  private final Map<Integer, AtomicInteger> unreleasedByPartition = new ConcurrentHashMap<>();

  RaftTransport transport(int memberId) {
    Local local = new Local(memberId);
    members.put(memberId, local);
    return local;
  }

  /** Append requests delivered whose entries were not released yet. */
  int unreleased() {
    return unreleasedByPartition.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  /** As {@link #unreleased()}, for the append requests of one partition only. */
  int unreleased(int partitionId) {
    AtomicInteger count = unreleasedByPartition.get(partitionId);
    return count == null ? 0 : count.get();
  }

  /**
   * What the Netty transport delivers: entries that view a buffer borrowed until release. Here the
   * buffer is overwritten on release, so that a receiver reading an entry after releasing it, or
   * keeping one, reads garbage and fails the tests that check what was replicated.
   */
  private RaftMessage asReceived(int partitionId, RaftMessage message) {
    if (!(message instanceof AppendRequest m) || m.entries().isEmpty()) {
      return message;
    }
    int bytes = 0;
    for (RaftEntry entry : m.entries()) {
      bytes += entry.dataLength();
    }
    UnsafeBuffer frame = new UnsafeBuffer(new byte[Math.max(1, bytes)]);
    RaftEntry[] views = new RaftEntry[m.entries().size()];
    int offset = 0;
    for (int i = 0; i < views.length; i++) {
      RaftEntry entry = m.entries().get(i);
      entry.copyDataTo(frame, offset);
      views[i] =
          RaftEntry.view(
              entry.index(),
              entry.term(),
              entry.type(),
              entry.asqn(),
              frame,
              offset,
              entry.dataLength());
      offset += entry.dataLength();
    }
    AtomicInteger ofPartition =
        unreleasedByPartition.computeIfAbsent(partitionId, id -> new AtomicInteger());
    ofPartition.incrementAndGet();
    return new AppendRequest(
        m.from(),
        m.to(),
        m.term(),
        m.prevIndex(),
        m.prevTerm(),
        new PoisonedOnRelease(views, frame, ofPartition),
        m.commitIndex());
  }

  private final class PoisonedOnRelease extends AbstractList<RaftEntry> implements Releasable {
    private final RaftEntry[] entries;
    private final UnsafeBuffer frame;
    private final AtomicBoolean released = new AtomicBoolean();
    private final AtomicInteger ofPartition;

    PoisonedOnRelease(RaftEntry[] entries, UnsafeBuffer frame, AtomicInteger ofPartition) {
      this.ofPartition = ofPartition;
      this.entries = entries;
      this.frame = frame;
    }

    @Override
    public RaftEntry get(int index) {
      if (released.get()) {
        throw new AssertionError("entry " + index + " of an append request read after release");
      }
      return entries[index];
    }

    @Override
    public int size() {
      return entries.length;
    }

    @Override
    public void release() {
      if (released.compareAndSet(false, true)) {
        frame.setMemory(0, frame.capacity(), (byte) 0x5A);
        ofPartition.decrementAndGet();
      }
    }
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
      target.receiver.onMessage(partitionId, asReceived(partitionId, message));
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
