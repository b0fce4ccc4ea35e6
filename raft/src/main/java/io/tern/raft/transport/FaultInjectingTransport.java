package io.tern.raft.transport;

import io.netty.util.concurrent.EventExecutor;
import io.tern.raft.RaftMessage;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wraps a {@link RaftTransport} and loses, delays or cuts off outbound messages per destination
 * member, as set at run time with {@link #setLinkFault}, {@link #setAllLinks} and {@link #clear}.
 * For tests, and for latency experiments where netem is not available: to put 15 ms between
 * brokers, give every broker's transport {@code setAllLinks(LinkFault.delay(15))}.
 *
 * <p>Faults act on the sending side only. A request and its response cross two links, so a round
 * trip between two brokers that both set a delay sees it twice.
 *
 * <p>Delays are precise to well under a millisecond: one scheduler thread takes messages from a
 * {@link DelayQueue} by their exact due time (no timer wheel ticks). Each link stays FIFO even with
 * jitter, as a delayed TCP connection would: a message is due at {@code max(due time of the
 * previous message on the link, now + delay + jitter)}. A lost message still makes {@code send}
 * return true, as the network would have taken it; only the wrapped transport's refusals return
 * false. Drops and jitter come from a {@link Random} seeded by the constructor, so a run with the
 * same sends is reproducible.
 */
public final class FaultInjectingTransport implements RaftTransport {
  private static final Logger LOG = LoggerFactory.getLogger(FaultInjectingTransport.class);

  private final RaftTransport delegate;
  private final DelayQueue<Pending> pending = new DelayQueue<>();
  private final Thread scheduler;

  // Guarded by this. Delivery also happens under the lock, so a message sent without delay on a
  // link cannot overtake one the scheduler is handing over on the same link.
  private final Random random;
  private final Map<Integer, LinkFault> linkFaults = new HashMap<>();
  private final Map<Integer, Long> lastDueNs = new HashMap<>();
  private final Map<Integer, Integer> pendingPerLink = new HashMap<>();
  private LinkFault allLinks = LinkFault.NONE;
  private long sequence;
  private long droppedMessages;
  private long delayedMessages;
  private boolean closed;

  public FaultInjectingTransport(RaftTransport delegate, long seed) {
    this.delegate = delegate;
    this.random = new Random(seed);
    this.scheduler =
        new Thread(this::deliverDue, "tern-fault-injector-" + delegate.localMemberId());
    scheduler.setDaemon(true);
    scheduler.start();
  }

  /** Sets the fault of the link to {@code toMember}, overriding {@link #setAllLinks}. */
  public synchronized void setLinkFault(int toMember, LinkFault fault) {
    linkFaults.put(toMember, fault);
  }

  /** Sets the fault of every link, present and future, replacing per-link settings. */
  public synchronized void setAllLinks(LinkFault fault) {
    linkFaults.clear();
    allLinks = fault;
  }

  /** Heals every link. Messages already delayed are still delivered when due. */
  public synchronized void clear() {
    setAllLinks(LinkFault.NONE);
  }

  public synchronized LinkFault linkFault(int toMember) {
    return linkFaults.getOrDefault(toMember, allLinks);
  }

  /** Messages lost to drops and partitions so far. */
  public synchronized long droppedMessages() {
    return droppedMessages;
  }

  /** Messages that went through the delay queue so far. */
  public synchronized long delayedMessages() {
    return delayedMessages;
  }

  @Override
  public boolean send(int partitionId, RaftMessage message) {
    int to = message.to();
    synchronized (this) {
      if (closed) {
        return false;
      }
      LinkFault fault = linkFault(to);
      if (fault.partitioned()
          || (fault.dropProbability() > 0 && random.nextDouble() < fault.dropProbability())) {
        droppedMessages++;
        return true;
      }
      int waiting = pendingPerLink.getOrDefault(to, 0);
      if (!fault.delays() && waiting == 0) {
        return delegate.send(partitionId, message);
      }
      long delayNs = TimeUnit.MILLISECONDS.toNanos(fault.delayMs());
      if (fault.jitterMs() > 0) {
        delayNs += (long) (random.nextDouble() * TimeUnit.MILLISECONDS.toNanos(fault.jitterMs()));
      }
      long dueNs = System.nanoTime() + delayNs;
      Long previousDueNs = lastDueNs.get(to);
      if (waiting > 0 && previousDueNs != null && previousDueNs - dueNs > 0) {
        dueNs = previousDueNs;
      }
      lastDueNs.put(to, dueNs);
      pendingPerLink.put(to, waiting + 1);
      delayedMessages++;
      pending.add(new Pending(dueNs, sequence++, partitionId, message));
      return true;
    }
  }

  @Override
  public void setReceiver(MessageReceiver receiver) {
    delegate.setReceiver(receiver);
  }

  @Override
  public int localMemberId() {
    return delegate.localMemberId();
  }

  @Override
  public int maxFrameBytes() {
    return delegate.maxFrameBytes();
  }

  /**
   * The wrapped transport's: delayed messages reach it from the scheduler thread, which is fine.
   */
  @Override
  public EventExecutor singleEventLoop() {
    return delegate.singleEventLoop();
  }

  /** Stops the scheduler (messages still delayed are lost) and closes the wrapped transport. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    scheduler.interrupt();
    try {
      scheduler.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    pending.clear();
    delegate.close();
  }

  private void deliverDue() {
    while (true) {
      Pending due;
      try {
        due = pending.take();
      } catch (InterruptedException e) {
        return;
      }
      synchronized (this) {
        if (closed) {
          return;
        }
        int to = due.message.to();
        pendingPerLink.merge(to, -1, Integer::sum);
        if (linkFault(to).partitioned()) {
          droppedMessages++; // cut while in flight: a partition loses what is on the wire too
          continue;
        }
        try {
          delegate.send(due.partitionId, due.message);
        } catch (RuntimeException e) {
          LOG.error("fault injector: delivering {} failed", due.message, e);
        }
      }
    }
  }

  /** Ordered by due time, then by send order, so equal due times keep FIFO order. */
  private static final class Pending implements Delayed {
    final long dueNs;
    final long sequence;
    final int partitionId;
    final RaftMessage message;

    Pending(long dueNs, long sequence, int partitionId, RaftMessage message) {
      this.dueNs = dueNs;
      this.sequence = sequence;
      this.partitionId = partitionId;
      this.message = message;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(dueNs - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      Pending that = (Pending) other;
      long byDue = dueNs - that.dueNs;
      if (byDue != 0) {
        return byDue < 0 ? -1 : 1;
      }
      return Long.compare(sequence, that.sequence);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Pending that && that.sequence == sequence;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(sequence);
    }
  }
}
