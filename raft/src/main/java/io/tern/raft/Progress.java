package io.tern.raft;

/**
 * The leader's view of one follower (etcd's tracker.Progress). In {@link State#PROBE} the leader
 * sends one append at a time until it finds where the logs match; in {@link State#REPLICATE} it
 * streams up to {@code maxInflight} appends without waiting for each response; in {@link
 * State#SNAPSHOT} it streams the chunks of a snapshot, up to {@code maxInflight} beyond the last
 * one the follower confirmed (go-back-N: a gap makes it resend from there).
 */
final class Progress {
  enum State {
    PROBE,
    REPLICATE,
    SNAPSHOT
  }

  private final int maxInflight;

  /** Last index of each append in flight, oldest first: a ring, so sending allocates nothing. */
  private final long[] inflight;

  private int inflightHead;
  private int inflightCount;

  State state = State.PROBE;
  long matchIndex;
  long nextIndex;

  /** In PROBE: an append was sent and no response came yet; cleared by heartbeat ticks. */
  boolean probeSent;

  /** Heard from since the last check-quorum round. */
  boolean recentActive;

  /** A response came since the last heartbeat tick (SNAPSHOT: chunk answers). */
  private boolean respondedSinceHeartbeat;

  /**
   * Heartbeat ticks in a row in which appends were in flight and no answer freed one or advanced
   * the match. Answers alone prove nothing: a follower answers heartbeats at its old match index
   * while the append it lost stays "in flight" forever.
   */
  private int stalledHeartbeats;

  /** Heartbeat intervals without progress before a pipeline is presumed to have lost an append. */
  static final int STALLED_HEARTBEATS_BEFORE_PROBE = 2;

  // SNAPSHOT state: the snapshot being sent, the next chunk to send, and the first chunk the
  // follower has not confirmed. goneBackTo avoids resending the same window for every duplicate
  // of a gap report.
  SnapshotMeta snapshot;
  int nextChunk;
  int ackedChunks;
  private int goneBackTo = -1;

  Progress(long nextIndex, int maxInflight) {
    this.nextIndex = nextIndex;
    this.maxInflight = maxInflight;
    this.inflight = new long[maxInflight];
  }

  boolean canSend() {
    return switch (state) {
      case PROBE -> !probeSent;
      case REPLICATE -> inflightCount < maxInflight;
      case SNAPSHOT -> nextChunk < snapshot.chunkCount() && nextChunk < ackedChunks + maxInflight;
    };
  }

  void sent(long lastIndex) {
    if (state == State.PROBE) {
      probeSent = true;
    } else {
      inflight[(inflightHead + inflightCount) % maxInflight] = lastIndex;
      inflightCount++;
      nextIndex = lastIndex + 1;
    }
  }

  /** A success for {@code index}: frees the appends it covers. Returns true if match advanced. */
  boolean acknowledge(long index) {
    respondedSinceHeartbeat = true;
    if (state == State.SNAPSHOT) {
      // An answer to an append sent before the snapshot started; only the snapshot moves us on.
      boolean advanced = index > matchIndex;
      matchIndex = Math.max(matchIndex, index);
      return advanced;
    }
    int inflightBefore = inflightCount;
    while (inflightCount > 0 && inflight[inflightHead] <= index) {
      inflightHead = (inflightHead + 1) % maxInflight;
      inflightCount--;
    }
    probeSent = false;
    boolean advanced = index > matchIndex;
    if (advanced || inflightCount < inflightBefore) {
      stalledHeartbeats = 0;
    }
    if (advanced) {
      matchIndex = index;
    }
    nextIndex = Math.max(nextIndex, index + 1);
    if (state == State.PROBE) {
      state = State.REPLICATE;
      inflightCount = 0;
    }
    return advanced;
  }

  /**
   * A rejection of an append whose prevIndex was {@code rejected}; retries from the follower's
   * {@code hint}. Stale rejections (of appends sent before a newer probe) are ignored.
   *
   * @return true if the progress changed and an append should be sent
   */
  boolean reject(long rejected, long hint) {
    respondedSinceHeartbeat = true;
    if (state == State.SNAPSHOT) {
      return false;
    }
    if (state == State.REPLICATE) {
      if (rejected <= matchIndex) {
        if (rejected == matchIndex && hint < matchIndex) {
          // A heartbeat at our match index failed: the follower lost entries it had acknowledged
          // (possible only with an unsafe flush mode). Find where its log ends again.
          matchIndex = hint;
          becomeProbe();
          return true;
        }
        return false;
      }
      nextIndex = Math.max(matchIndex + 1, Math.min(rejected, hint + 1));
    } else {
      if (rejected != nextIndex - 1) {
        return false;
      }
      if (hint < matchIndex) {
        matchIndex = hint; // lost acknowledged entries (unsafe flush mode), as above
      }
      nextIndex = Math.max(matchIndex + 1, Math.min(rejected, hint + 1));
    }
    state = State.PROBE;
    probeSent = false;
    inflightCount = 0;
    return true;
  }

  /**
   * Re-arms probing each heartbeat. A pipeline whose appends in flight were not acknowledged for
   * {@link #STALLED_HEARTBEATS_BEFORE_PROBE} heartbeat intervals lost one of them (a connection
   * dropped, a follower restarted): fall back to probing from the match index, or the missing
   * entries would only be sent again once a new proposal makes the follower reject a gap.
   */
  void onHeartbeatTick() {
    if (state == State.SNAPSHOT) {
      if (!respondedSinceHeartbeat) {
        nextChunk = ackedChunks; // chunks or their answers were lost: resend the window
      }
      respondedSinceHeartbeat = false;
      return;
    }
    probeSent = false;
    respondedSinceHeartbeat = false;
    if (state != State.REPLICATE || inflightCount == 0) {
      stalledHeartbeats = 0;
      return;
    }
    stalledHeartbeats++;
    if (stalledHeartbeats >= STALLED_HEARTBEATS_BEFORE_PROBE) {
      becomeProbe();
    }
  }

  void becomeSnapshot(SnapshotMeta meta) {
    state = State.SNAPSHOT;
    snapshot = meta;
    nextChunk = 0;
    ackedChunks = 0;
    goneBackTo = -1;
    inflightCount = 0;
  }

  void chunkSent() {
    nextChunk++;
  }

  /** The follower has every chunk below {@code nextExpected}. */
  void chunksAcknowledged(int nextExpected) {
    respondedSinceHeartbeat = true;
    // A follower still receiving lacks at least the last chunk; a larger number (no correct member
    // sends one) would leave nothing to send and stall the transfer.
    nextExpected = Math.max(0, Math.min(nextExpected, snapshot.chunkCount() - 1));
    if (nextExpected > ackedChunks) {
      ackedChunks = nextExpected;
      nextChunk = Math.max(nextChunk, nextExpected);
    } else if (nextExpected < ackedChunks) {
      // The follower started over (it lost the pending snapshot or verification failed).
      ackedChunks = nextExpected;
      nextChunk = nextExpected;
      goneBackTo = -1;
    } else if (nextChunk > nextExpected && goneBackTo != nextExpected) {
      // No progress although later chunks were sent: one went missing. Resend from the gap once.
      nextChunk = nextExpected;
      goneBackTo = nextExpected;
    }
  }

  /** The follower installed the snapshot: its log now matches ours up to the snapshot index. */
  void snapshotInstalled(long snapshotIndex) {
    respondedSinceHeartbeat = true;
    matchIndex = Math.max(matchIndex, snapshotIndex);
    becomeProbe();
  }

  void becomeProbe() {
    stalledHeartbeats = 0;
    state = State.PROBE;
    snapshot = null;
    probeSent = false;
    inflightCount = 0;
    nextIndex = matchIndex + 1;
  }

  @Override
  public String toString() {
    return state
        + (state == State.SNAPSHOT ? "(chunk " + ackedChunks + "/" + nextChunk + ")" : "")
        + "{match="
        + matchIndex
        + ", next="
        + nextIndex
        + ", inflight="
        + inflightCount
        + "}";
  }
}
