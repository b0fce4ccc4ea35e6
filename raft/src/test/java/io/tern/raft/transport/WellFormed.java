package io.tern.raft.transport;

import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftMessage.AppendResponse;
import io.tern.raft.RaftMessage.SnapshotChunk;
import io.tern.raft.RaftMessage.SnapshotResponse;
import io.tern.raft.RaftMessage.TimeoutNow;
import io.tern.raft.RaftMessage.VoteRequest;
import io.tern.raft.RaftMessage.VoteResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * Test helper: folds arbitrary field values into a message that obeys {@link MessageRules}, keeping
 * as much of the randomness as the rules allow (values are reduced, not replaced).
 */
final class WellFormed {
  private static final long MAX_TERM = 1L << 40;
  private static final long MAX_INDEX = 1L << 50;

  private WellFormed() {}

  static RaftMessage repair(RaftMessage message) {
    long term = 1 + Math.floorMod(message.term(), MAX_TERM);
    if (message instanceof AppendRequest m) {
      long prevIndex = Math.floorMod(m.prevIndex(), MAX_INDEX);
      long prevTerm = termAt(prevIndex, m.prevTerm(), term);
      List<RaftEntry> entries = new ArrayList<>();
      long entryTerm = Math.max(1, prevTerm);
      for (RaftEntry e : m.entries()) {
        entryTerm = Math.min(term, entryTerm + Math.floorMod(e.term(), 2));
        entries.add(
            new RaftEntry(prevIndex + 1 + entries.size(), entryTerm, e.type(), e.asqn(), e.data()));
      }
      long commit = Math.floorMod(m.commitIndex(), prevIndex + entries.size() + 1);
      return new AppendRequest(m.from(), m.to(), term, prevIndex, prevTerm, entries, commit);
    } else if (message instanceof AppendResponse m) {
      return new AppendResponse(
          m.from(),
          m.to(),
          term,
          m.success(),
          Math.floorMod(m.index(), MAX_INDEX),
          Math.floorMod(m.hint(), MAX_INDEX));
    } else if (message instanceof VoteRequest m) {
      long lastIndex = Math.floorMod(m.lastIndex(), MAX_INDEX);
      return new VoteRequest(
          m.from(),
          m.to(),
          term,
          lastIndex,
          termAt(lastIndex, m.lastTerm(), term),
          m.preVote(),
          m.transfer());
    } else if (message instanceof VoteResponse m) {
      return new VoteResponse(m.from(), m.to(), term, m.granted(), m.preVote());
    } else if (message instanceof TimeoutNow m) {
      return new TimeoutNow(m.from(), m.to(), term);
    } else if (message instanceof SnapshotChunk m) {
      int count = 1 + Math.floorMod(m.chunkCount(), Integer.MAX_VALUE);
      return new SnapshotChunk(
          m.from(),
          m.to(),
          term,
          1 + Math.floorMod(m.snapshotIndex(), MAX_INDEX),
          1 + Math.floorMod(m.snapshotTerm(), term),
          Math.floorMod(m.snapshotChecksum(), 1L << 32),
          Math.floorMod(m.chunkIndex(), count),
          count,
          m.fileName(),
          Math.floorMod(m.fileOffset(), MAX_INDEX),
          m.data(),
          m.crc32c());
    } else if (message instanceof SnapshotResponse m) {
      return new SnapshotResponse(
          m.from(),
          m.to(),
          term,
          Math.floorMod(m.snapshotIndex(), MAX_INDEX),
          Math.floorMod(m.nextChunkIndex(), Integer.MAX_VALUE),
          m.installed());
    }
    throw new IllegalArgumentException("unknown message " + message);
  }

  /** Term 0 at index 0, else a term in [1, leaderTerm]. */
  private static long termAt(long index, long raw, long leaderTerm) {
    return index == 0 ? 0 : 1 + Math.floorMod(raw, leaderTerm);
  }
}
