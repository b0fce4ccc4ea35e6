package io.tern.raft.server;

import java.util.Locale;

/**
 * When the Raft log is forced to disk ({@code raft.flush.mode}), the experiment Tern's users care
 * most about. The modes differ in what a crash can lose:
 *
 * <ul>
 *   <li>{@link #SYNC} (default): a follower flushes before acknowledging; the leader flushes before
 *       counting itself toward the commit quorum. No acknowledged (committed) entry is lost in any
 *       crash, including a power loss of every broker at once.
 *   <li>{@link #DELAYED}: as safe as {@code sync}, with fewer fsyncs. Flushes are coalesced (group
 *       commit): one flush covers everything appended so far and starts at most once per {@code
 *       raft.flush.delayMs}, at once when the previous flush is older than that. Acknowledgements
 *       still wait for the flush that covers them, so commit latency grows by up to the delay.
 *   <li>{@link #ASYNC}: unsafe. Entries are acknowledged as soon as they are written to the mapped
 *       journal; a background thread flushes at most once per {@code raft.flush.delayMs}. A crash
 *       of one broker's process loses nothing (the page cache survives), but if a majority of
 *       brokers lose power or their kernel before their background flush, acknowledged entries are
 *       lost and the partition may need to be rebuilt.
 *   <li>{@link #OFF}: unsafe. Never flushes, except before a snapshot and on a clean shutdown. As
 *       {@code async}, but the window of loss is whatever the kernel had not yet written back
 *       (typically up to 30 s of writes).
 * </ul>
 *
 * Term and vote are always forced before they are acted on, in every mode.
 */
public enum FlushMode {
  SYNC,
  DELAYED,
  ASYNC,
  OFF;

  /** Acknowledgements wait for the flush. */
  public boolean waitsForFlush() {
    return this == SYNC || this == DELAYED;
  }

  /** Parses a {@code raft.flush.mode} value (case-insensitive) with a clear error. */
  public static FlushMode parse(String value) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "raft.flush.mode must be one of sync, delayed, async, off; got '" + value + "'", e);
    }
  }
}
