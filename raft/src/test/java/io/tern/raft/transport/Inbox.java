package io.tern.raft.transport;

import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.AppendRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;

/** A receiver that collects messages for tests to await. */
final class Inbox implements MessageReceiver {
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final LinkedBlockingQueue<Envelope> received = new LinkedBlockingQueue<>();
  private final AtomicInteger appendsWithViews = new AtomicInteger();

  /**
   * Keeps a copy that owns its data and releases the message, as a receiver must: the entries of a
   * received append request view the transport's frame only until then.
   */
  @Override
  public void onMessage(int partitionId, RaftMessage message) {
    RaftMessage kept = message;
    if (message instanceof AppendRequest m && m.entries().stream().anyMatch(RaftEntry::isView)) {
      appendsWithViews.incrementAndGet();
      kept =
          new AppendRequest(
              m.from(),
              m.to(),
              m.term(),
              m.prevIndex(),
              m.prevTerm(),
              m.entries().stream().map(RaftEntry::owned).toList(),
              m.commitIndex());
    }
    message.release();
    received.add(new Envelope(partitionId, kept));
  }

  /** Append requests received whose entries viewed the frame they came in. */
  int appendsWithViews() {
    return appendsWithViews.get();
  }

  /** The next {@code count} messages; fails if they do not all arrive in time. */
  List<Envelope> take(int count) throws InterruptedException {
    List<Envelope> messages = new ArrayList<>(count);
    long deadlineNs = System.nanoTime() + TIMEOUT.toNanos();
    while (messages.size() < count) {
      Envelope next = received.poll(deadlineNs - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (next == null) {
        throw new AssertionError(
            "received " + messages.size() + " of " + count + " messages within " + TIMEOUT);
      }
      messages.add(next);
    }
    return messages;
  }

  Envelope take() throws InterruptedException {
    return take(1).get(0);
  }

  /** Whatever arrives within {@code wait} (for checking that nothing does). */
  List<Envelope> drain(Duration wait) throws InterruptedException {
    // Nothing arriving is what is checked, over the whole wait: each message is taken as it comes.
    List<Envelope> messages = new ArrayList<>();
    long deadlineNs = System.nanoTime() + wait.toNanos();
    for (long leftNs = wait.toNanos(); leftNs > 0; leftNs = deadlineNs - System.nanoTime()) {
      Envelope next = received.poll(leftNs, TimeUnit.NANOSECONDS);
      if (next != null) {
        messages.add(next);
      }
    }
    received.drainTo(messages);
    return messages;
  }

  static void await(String what, BooleanSupplier condition) {
    Awaitility.await(what)
        .atMost(TIMEOUT)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(5))
        .until(condition::getAsBoolean);
  }
}
