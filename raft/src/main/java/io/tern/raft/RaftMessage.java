package io.tern.raft;

import java.util.List;

/** Messages between the members of one Raft group. Every message carries its sender's term. */
public sealed interface RaftMessage {
  int from();

  int to();

  long term();

  /**
   * Gives back what the message borrows from the transport: the received frame that the entries of
   * an {@link AppendRequest} view (see {@link RaftEntry}). Whoever a transport delivers a message
   * to owns it and calls this once done with it, also when dropping it; the message's entries must
   * not be read afterwards. Messages that borrow nothing ignore it, so calling it is always safe.
   */
  default void release() {}

  /**
   * Replicates entries after {@code prevIndex} (Raft figure 2), or is a heartbeat when empty.
   * {@code sequence} lets the leader match responses to in-flight requests of a pipeline.
   */
  record AppendRequest(
      int from,
      int to,
      long term,
      long prevIndex,
      long prevTerm,
      List<RaftEntry> entries,
      long commitIndex)
      implements RaftMessage {
    public long lastIndex() {
      return prevIndex + entries.size();
    }

    @Override
    public void release() {
      if (entries instanceof Releasable borrowed) {
        borrowed.release();
      }
    }
  }

  /**
   * Success: the follower's log matches the leader's up to {@code index} and is persisted that far.
   * Failure: the log did not match at {@code index} (the request's prevIndex); {@code hint} is
   * where the follower suggests to retry from (its last index, or the last index before the
   * conflicting term), so the leader backs off a whole term at a time instead of one entry.
   */
  record AppendResponse(int from, int to, long term, boolean success, long index, long hint)
      implements RaftMessage {}

  /**
   * Asks for a vote. A pre-vote ({@code preVote}) asks whether the voter would vote at {@code term}
   * without changing anyone's term. {@code transfer} marks an election started by a leadership
   * transfer, which voters grant even though they heard from the leader recently.
   */
  record VoteRequest(
      int from, int to, long term, long lastIndex, long lastTerm, boolean preVote, boolean transfer)
      implements RaftMessage {}

  record VoteResponse(int from, int to, long term, boolean granted, boolean preVote)
      implements RaftMessage {}

  /** Leadership transfer: the leader tells a caught-up member to start an election at once. */
  record TimeoutNow(int from, int to, long term) implements RaftMessage {}

  /**
   * One chunk of a snapshot, sent by the leader to a follower that needs entries the leader has
   * compacted away. Chunks are numbered from 0 and written in order into the follower's pending
   * area; {@code data} holds bytes {@code [fileOffset, fileOffset + data.length)} of the snapshot
   * file {@code fileName}. {@code crc32c} covers {@code data}; {@code snapshotChecksum} covers the
   * whole snapshot and is verified before the follower installs it. {@code membership} is the
   * snapshot's configuration ({@link SnapshotMeta#membership()}, null if it records none).
   */
  record SnapshotChunk(
      int from,
      int to,
      long term,
      long snapshotIndex,
      long snapshotTerm,
      long snapshotChecksum,
      int chunkIndex,
      int chunkCount,
      String fileName,
      long fileOffset,
      byte[] data,
      int crc32c,
      Membership membership)
      implements RaftMessage {
    /** A chunk of a snapshot that records no configuration. */
    public SnapshotChunk(
        int from,
        int to,
        long term,
        long snapshotIndex,
        long snapshotTerm,
        long snapshotChecksum,
        int chunkIndex,
        int chunkCount,
        String fileName,
        long fileOffset,
        byte[] data,
        int crc32c) {
      this(
          from,
          to,
          term,
          snapshotIndex,
          snapshotTerm,
          snapshotChecksum,
          chunkIndex,
          chunkCount,
          fileName,
          fileOffset,
          data,
          crc32c,
          null);
    }

    public boolean last() {
      return chunkIndex == chunkCount - 1;
    }

    @Override
    public String toString() {
      return "SnapshotChunk["
          + from
          + "->"
          + to
          + " term="
          + term
          + " snapshot="
          + snapshotIndex
          + "@"
          + snapshotTerm
          + " chunk="
          + chunkIndex
          + "/"
          + chunkCount
          + " "
          + fileName
          + "+"
          + fileOffset
          + " len="
          + data.length
          + "]";
    }
  }

  /**
   * The follower's answer to a {@link SnapshotChunk}: it has every chunk below {@code
   * nextChunkIndex} of snapshot {@code snapshotIndex} (flow control: the leader keeps a bounded
   * window of chunks beyond it). {@code installed}: the snapshot is verified, installed and the
   * follower's log now starts after it. {@code nextChunkIndex} 0 without {@code installed} after
   * the last chunk means the snapshot failed verification and the leader should start over.
   */
  record SnapshotResponse(
      int from, int to, long term, long snapshotIndex, int nextChunkIndex, boolean installed)
      implements RaftMessage {}
}
