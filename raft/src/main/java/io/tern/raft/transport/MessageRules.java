package io.tern.raft.transport;

import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftMessage.AppendResponse;
import io.tern.raft.RaftMessage.SnapshotChunk;
import io.tern.raft.RaftMessage.SnapshotResponse;
import io.tern.raft.RaftMessage.VoteRequest;
import java.util.List;

/**
 * What every well-formed message satisfies, whatever the receiver's state: indexes and terms are
 * not negative, a positive index comes with a positive term, an append's entries follow its
 * prevIndex one by one with terms that never decrease and never exceed the leader's, and a chunk's
 * number lies within its count. The decoder checks these so that the Raft core, which trusts its
 * peers to follow the protocol, never sees a message no correct member sends (a term of -1 would
 * match the core's "unknown" and let a commit index run past the log; a negative chunk number would
 * fail a read on the leader and stop its partition).
 */
public final class MessageRules {
  private MessageRules() {}

  /** What is wrong with {@code message}, or null if nothing. */
  public static String violation(RaftMessage message) {
    if (message.term() < 0) {
      return "has a negative term " + message.term();
    }
    if (message instanceof AppendRequest m) {
      return appendRequest(m);
    } else if (message instanceof AppendResponse m) {
      return m.index() < 0 || m.hint() < 0
          ? "has a negative index " + m.index() + " or hint " + m.hint()
          : null;
    } else if (message instanceof VoteRequest m) {
      return position("last", m.lastIndex(), m.lastTerm());
    } else if (message instanceof SnapshotChunk m) {
      return snapshotChunk(m);
    } else if (message instanceof SnapshotResponse m) {
      return m.snapshotIndex() < 0 || m.nextChunkIndex() < 0
          ? "has a negative snapshot index "
              + m.snapshotIndex()
              + " or next chunk "
              + m.nextChunkIndex()
          : null;
    }
    return null; // VoteResponse, TimeoutNow: nothing beyond the term
  }

  private static String appendRequest(AppendRequest m) {
    String prev = position("prev", m.prevIndex(), m.prevTerm());
    if (prev != null) {
      return prev;
    }
    if (m.prevTerm() > m.term()) {
      return "has prevTerm " + m.prevTerm() + " above its term " + m.term();
    }
    if (m.commitIndex() < 0 || m.commitIndex() > m.lastIndex()) {
      // The leader sends min(commitIndex, last entry sent): a follower may only commit what it
      // is known to match.
      return "has commit index " + m.commitIndex() + " outside [0, " + m.lastIndex() + "]";
    }
    List<RaftEntry> entries = m.entries();
    long previousTerm = m.prevTerm();
    for (int i = 0; i < entries.size(); i++) {
      RaftEntry entry = entries.get(i);
      if (entry.index() != m.prevIndex() + 1 + i) {
        return "has entry "
            + entry.index()
            + " at position "
            + i
            + " after prevIndex "
            + m.prevIndex();
      }
      if (entry.term() < Math.max(1, previousTerm) || entry.term() > m.term()) {
        return "has entry "
            + entry.index()
            + " of term "
            + entry.term()
            + " outside ["
            + Math.max(1, previousTerm)
            + ", "
            + m.term()
            + "]";
      }
      previousTerm = entry.term();
    }
    return null;
  }

  private static String snapshotChunk(SnapshotChunk m) {
    if (m.snapshotIndex() < 1 || m.snapshotTerm() < 1 || m.snapshotTerm() > m.term()) {
      return "has snapshot index "
          + m.snapshotIndex()
          + " and term "
          + m.snapshotTerm()
          + " (index >= 1 and 1 <= term <= "
          + m.term()
          + " expected)";
    }
    if (m.chunkCount() < 1 || m.chunkIndex() < 0 || m.chunkIndex() >= m.chunkCount()) {
      return "has chunk " + m.chunkIndex() + " of " + m.chunkCount();
    }
    if (m.fileOffset() < 0 || m.fileOffset() > Long.MAX_VALUE - m.data().length) {
      return "has file offset " + m.fileOffset();
    }
    if (m.snapshotChecksum() < 0 || m.snapshotChecksum() > 0xFFFF_FFFFL) {
      return "has snapshot checksum " + m.snapshotChecksum() + ", not a CRC32C";
    }
    return null;
  }

  /** Index 0 has term 0 (the empty log); a positive index has a positive term. */
  private static String position(String name, long index, long term) {
    if (index < 0 || term < 0 || (index == 0) != (term == 0)) {
      return "has " + name + "Index " + index + " with " + name + "Term " + term;
    }
    return null;
  }
}
