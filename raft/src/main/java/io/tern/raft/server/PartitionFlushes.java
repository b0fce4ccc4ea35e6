package io.tern.raft.server;

import io.tern.journal.SegmentedJournal;
import io.tern.raft.RaftNode;
import java.util.function.Supplier;

/**
 * How one partition's appended entries become persisted, per {@link FlushMode}: the Raft thread
 * flushes itself (a group of one in sync mode), hands the flush to a {@link Flusher} on one of the
 * broker's flush threads and waits for it (sync, delayed), hands it over without waiting (async),
 * or never flushes (off). It tells the core how far entries are persisted, which is what lets a
 * member count or acknowledge them. Raft thread only, but for {@link #close()}.
 */
final class PartitionFlushes {
  private final RaftServerConfig config;
  private final SegmentedJournal journal;
  private final RaftNode node;
  private final boolean flushesInline;
  private final Flusher flusher; // null when flushing is off or inline

  PartitionFlushes(
      RaftServerConfig config,
      int members,
      SegmentedJournal journal,
      RaftNode node,
      Supplier<DutyLoop> flushLoop,
      Runnable wake) {
    this.config = config;
    this.journal = journal;
    this.node = node;
    // A group of one has no follower to keep replicating to while a flush runs, so in sync mode its
    // Raft thread flushes itself: handing each flush to a thread and back only adds two wake-ups.
    this.flushesInline = config.flushMode() == FlushMode.SYNC && members == 1;
    this.flusher =
        config.flushMode() == FlushMode.OFF || flushesInline
            ? null
            : new Flusher(
                flushLoop.get(),
                journal,
                // Async acknowledges without waiting, so its background flushes need not chase
                // every append: pacing them by the delay saves a core's worth of msync calls.
                config.flushMode() == FlushMode.SYNC ? 0 : config.flushDelayMs(),
                wake);
  }

  /** Hands appended entries to the flush mode; true if the core was told they are persisted. */
  boolean persist(long upTo) {
    switch (config.flushMode()) {
      case SYNC, DELAYED -> {
        if (flushesInline) {
          journal.flush();
          node.onPersisted(journal.getLastFlushedIndex());
          return true;
        }
        flusher.request(upTo);
        return false;
      }
      case ASYNC -> {
        flusher.request(upTo);
        node.onPersisted(upTo);
        return true;
      }
      case OFF -> {
        node.onPersisted(upTo);
        return true;
      }
    }
    throw new AssertionError(config.flushMode());
  }

  /** Safe modes: tell the core how far the flusher got. */
  int reportFlushed() {
    if (flushedAhead()) {
      node.onPersisted(journal.getLastFlushedIndex());
      return 1;
    }
    return 0;
  }

  /** Safe modes: whether the flusher got further than the core knows. */
  boolean flushedAhead() {
    return config.flushMode().waitsForFlush()
        && journal.getLastFlushedIndex() > node.persistedIndex();
  }

  /** Stops the partition (the turn throws) once a background flush has failed. */
  void checkFailure() {
    if (flusher != null && flusher.failure() != null) {
      throw new IllegalStateException("the journal flush failed", flusher.failure());
    }
  }

  /** Stops the background flushes; a turn still running only wakes the flush loop. */
  void close() {
    if (flusher != null) {
      flusher.close();
    }
  }
}
