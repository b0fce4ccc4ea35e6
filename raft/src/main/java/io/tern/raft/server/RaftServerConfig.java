package io.tern.raft.server;

import io.tern.journal.JournalConfig;
import io.tern.raft.RaftConfig;
import io.tern.raft.snapshot.FileSnapshotStore;
import java.nio.file.Path;

/**
 * Settings of the Raft partitions a broker hosts; the one documented place for them (see the
 * README's Raft section, which lists each with its default and what it trades).
 *
 * @param dataDirectory partitions live in {@code <dataDirectory>/partition-<id>/}
 * @param tickMs the Raft clock's resolution; timeouts below are rounded to whole ticks
 * @param heartbeatIntervalMs how often a leader heartbeats idle followers
 * @param electionTimeoutMs how long a follower waits for a leader before campaigning (randomized up
 *     to twice this); also how long a leader may miss a majority before stepping down
 * @param maxInflightAppends append requests (or snapshot chunks) in flight per follower
 * @param maxAppendBatchBytes payload bytes per append request
 * @param flushMode see {@link FlushMode}
 * @param flushDelayMs {@link FlushMode#DELAYED} and {@link FlushMode#ASYNC}: at most one flush per
 *     this many ms
 * @param snapshotChunkBytes size of the chunks a snapshot is sent in
 * @param compactionTailEntries entries kept below a snapshot when compacting, so that followers a
 *     little behind catch up from the log instead of a snapshot
 * @param preferSnapshotThresholdEntries a follower further behind the leader's latest snapshot than
 *     this many entries gets the snapshot even where the log still holds the entries ({@link
 *     RaftConfig#preferSnapshotThresholdEntries()})
 * @param segmentSizeBytes journal segment size
 * @param journalMadvise the advice given for mapped segments ({@link JournalConfig.Madvise})
 * @param journalPreallocation how segments are reserved ({@link JournalConfig.Preallocation}); null
 *     for the journal's default
 * @param maxPendingProposals proposals queued for the Raft thread; more are refused at once (the
 *     caller sees backpressure instead of unbounded memory)
 * @param raftThreads threads that run the Raft groups of all partitions of a broker, each taking
 *     turns among its share of them (never more threads than partitions)
 * @param raftOnTransportThread run every Raft group on the transport's thread (when it has just
 *     one) instead of on {@code raftThreads} threads of their own: messages then reach the groups
 *     and leave them without waking another thread, but one thread does all Raft and network work
 * @param flushThreads threads that flush the partitions' journals in the flush modes that have a
 *     flush thread, each serving its share of the partitions one flush at a time
 */
public record RaftServerConfig(
    Path dataDirectory,
    int tickMs,
    int heartbeatIntervalMs,
    int electionTimeoutMs,
    int maxInflightAppends,
    int maxAppendBatchBytes,
    boolean preVote,
    boolean checkQuorum,
    boolean priorityElection,
    FlushMode flushMode,
    int flushDelayMs,
    int snapshotChunkBytes,
    long compactionTailEntries,
    long preferSnapshotThresholdEntries,
    int segmentSizeBytes,
    JournalConfig.Madvise journalMadvise,
    JournalConfig.Preallocation journalPreallocation,
    int maxPendingProposals,
    int raftThreads,
    boolean raftOnTransportThread,
    int flushThreads) {

  public static final int DEFAULT_TICK_MS = 50;
  public static final int DEFAULT_HEARTBEAT_INTERVAL_MS = 100;
  public static final int DEFAULT_ELECTION_TIMEOUT_MS = 1000;
  public static final int DEFAULT_FLUSH_DELAY_MS = 2;
  public static final int DEFAULT_SNAPSHOT_CHUNK_BYTES = 1024 * 1024;
  public static final long DEFAULT_COMPACTION_TAIL_ENTRIES = 10_000;
  public static final int DEFAULT_MAX_PENDING_PROPOSALS = 16_384;

  /** The proposal queue's capacity is a power of two: this is the largest an int allows. */
  public static final int MAX_PENDING_PROPOSALS = 1 << 30;

  public static final int DEFAULT_RAFT_THREADS = 2;
  public static final int DEFAULT_FLUSH_THREADS = 2;
  public static final boolean DEFAULT_RAFT_ON_TRANSPORT_THREAD = false;

  public RaftServerConfig {
    require(tickMs >= 1, "tickMs must be >= 1, got " + tickMs);
    require(
        heartbeatIntervalMs >= tickMs,
        "heartbeatIntervalMs (" + heartbeatIntervalMs + ") must be >= tickMs (" + tickMs + ")");
    require(
        electionTimeoutMs >= 2 * heartbeatIntervalMs,
        "electionTimeoutMs ("
            + electionTimeoutMs
            + ") must be at least twice heartbeatIntervalMs ("
            + heartbeatIntervalMs
            + ")");
    require(dataDirectory != null, "dataDirectory is required");
    require(flushMode != null, "flushMode is required");
    require(maxInflightAppends >= 1, "maxInflightAppends must be >= 1, got " + maxInflightAppends);
    require(
        maxAppendBatchBytes >= 1, "maxAppendBatchBytes must be >= 1, got " + maxAppendBatchBytes);
    require(
        snapshotChunkBytes >= FileSnapshotStore.MIN_CHUNK_BYTES
            && snapshotChunkBytes <= FileSnapshotStore.MAX_CHUNK_BYTES,
        "snapshotChunkBytes must be within ["
            + FileSnapshotStore.MIN_CHUNK_BYTES
            + ", "
            + FileSnapshotStore.MAX_CHUNK_BYTES
            + "], got "
            + snapshotChunkBytes);
    require(
        segmentSizeBytes >= JournalConfig.MIN_SEGMENT_SIZE_BYTES
            && segmentSizeBytes <= JournalConfig.MAX_SEGMENT_SIZE_BYTES,
        "segmentSizeBytes must be within ["
            + JournalConfig.MIN_SEGMENT_SIZE_BYTES
            + ", "
            + JournalConfig.MAX_SEGMENT_SIZE_BYTES
            + "], got "
            + segmentSizeBytes);
    require(journalMadvise != null, "journalMadvise is required");
    require(flushDelayMs >= 0, "flushDelayMs must be >= 0, got " + flushDelayMs);
    require(compactionTailEntries >= 0, "compactionTailEntries must be >= 0");
    require(
        maxPendingProposals >= 1 && maxPendingProposals <= MAX_PENDING_PROPOSALS,
        "maxPendingProposals must be within [1, "
            + MAX_PENDING_PROPOSALS
            + "] (it is rounded up to a power of two), got "
            + maxPendingProposals);
    require(raftThreads >= 1, "raftThreads must be >= 1, got " + raftThreads);
    require(flushThreads >= 1, "flushThreads must be >= 1, got " + flushThreads);
    require(
        maxAppendBatchBytes <= segmentSizeBytes / 2,
        "maxAppendBatchBytes (" + maxAppendBatchBytes + ") must fit twice in a journal segment");
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException("raft: " + message);
    }
  }

  public static Builder builder(Path dataDirectory) {
    return new Builder(dataDirectory);
  }

  /** The protocol settings of the core, in ticks. */
  public RaftConfig raftConfig() {
    return new RaftConfig(
        Math.max(2, electionTimeoutMs / tickMs),
        Math.max(1, heartbeatIntervalMs / tickMs),
        maxInflightAppends,
        maxAppendBatchBytes,
        preVote,
        checkQuorum,
        priorityElection,
        preferSnapshotThresholdEntries);
  }

  public JournalConfig.Builder journalConfig(Path directory) {
    JournalConfig.Builder builder =
        JournalConfig.builder(directory)
            .name("raft")
            .segmentSizeBytes(segmentSizeBytes)
            .madvise(journalMadvise);
    if (journalPreallocation != null) {
      builder.preallocation(journalPreallocation);
    }
    if (segmentSizeBytes < 2 * JournalConfig.DEFAULT_MAX_ENTRY_SIZE_BYTES) {
      builder.fitMaxEntrySizeToSegment(); // small segments (tests, experiments): one entry fits
    }
    return builder;
  }

  public static final class Builder {
    private Path dataDirectory;
    private int tickMs = DEFAULT_TICK_MS;
    private int heartbeatIntervalMs = DEFAULT_HEARTBEAT_INTERVAL_MS;
    private int electionTimeoutMs = DEFAULT_ELECTION_TIMEOUT_MS;
    private int maxInflightAppends = RaftConfig.DEFAULT_MAX_INFLIGHT_APPENDS;
    private int maxAppendBatchBytes = RaftConfig.DEFAULT_MAX_APPEND_BATCH_BYTES;
    private boolean preVote = true;
    private boolean checkQuorum = true;
    private boolean priorityElection = true;
    private FlushMode flushMode = FlushMode.SYNC;
    private int flushDelayMs = DEFAULT_FLUSH_DELAY_MS;
    private int snapshotChunkBytes = DEFAULT_SNAPSHOT_CHUNK_BYTES;
    private long compactionTailEntries = DEFAULT_COMPACTION_TAIL_ENTRIES;
    private long preferSnapshotThresholdEntries =
        RaftConfig.DEFAULT_PREFER_SNAPSHOT_THRESHOLD_ENTRIES;
    private int segmentSizeBytes = JournalConfig.DEFAULT_SEGMENT_SIZE_BYTES;
    private JournalConfig.Madvise journalMadvise = JournalConfig.Madvise.NONE;
    private JournalConfig.Preallocation journalPreallocation; // null: the journal's default
    private int maxPendingProposals = DEFAULT_MAX_PENDING_PROPOSALS;
    private int raftThreads = DEFAULT_RAFT_THREADS;
    private boolean raftOnTransportThread = DEFAULT_RAFT_ON_TRANSPORT_THREAD;
    private int flushThreads = DEFAULT_FLUSH_THREADS;

    private Builder(Path dataDirectory) {
      this.dataDirectory = dataDirectory;
    }

    public Builder dataDirectory(Path value) {
      dataDirectory = value;
      return this;
    }

    public Builder tickMs(int value) {
      tickMs = value;
      return this;
    }

    public Builder heartbeatIntervalMs(int value) {
      heartbeatIntervalMs = value;
      return this;
    }

    public Builder electionTimeoutMs(int value) {
      electionTimeoutMs = value;
      return this;
    }

    public Builder maxInflightAppends(int value) {
      maxInflightAppends = value;
      return this;
    }

    public Builder maxAppendBatchBytes(int value) {
      maxAppendBatchBytes = value;
      return this;
    }

    public Builder preferSnapshotThresholdEntries(long value) {
      preferSnapshotThresholdEntries = value;
      return this;
    }

    public Builder preVote(boolean value) {
      preVote = value;
      return this;
    }

    public Builder checkQuorum(boolean value) {
      checkQuorum = value;
      return this;
    }

    public Builder priorityElection(boolean value) {
      priorityElection = value;
      return this;
    }

    public Builder flushMode(FlushMode value) {
      flushMode = value;
      return this;
    }

    public Builder flushDelayMs(int value) {
      flushDelayMs = value;
      return this;
    }

    public Builder snapshotChunkBytes(int value) {
      snapshotChunkBytes = value;
      return this;
    }

    public Builder compactionTailEntries(long value) {
      compactionTailEntries = value;
      return this;
    }

    public Builder segmentSizeBytes(int value) {
      segmentSizeBytes = value;
      return this;
    }

    public Builder journalMadvise(JournalConfig.Madvise value) {
      journalMadvise = value;
      return this;
    }

    public Builder journalPreallocation(JournalConfig.Preallocation value) {
      journalPreallocation = value;
      return this;
    }

    public Builder maxPendingProposals(int value) {
      maxPendingProposals = value;
      return this;
    }

    public Builder raftThreads(int value) {
      raftThreads = value;
      return this;
    }

    public Builder raftOnTransportThread(boolean value) {
      raftOnTransportThread = value;
      return this;
    }

    public Builder flushThreads(int value) {
      flushThreads = value;
      return this;
    }

    public RaftServerConfig build() {
      return new RaftServerConfig(
          dataDirectory,
          tickMs,
          heartbeatIntervalMs,
          electionTimeoutMs,
          maxInflightAppends,
          maxAppendBatchBytes,
          preVote,
          checkQuorum,
          priorityElection,
          flushMode,
          flushDelayMs,
          snapshotChunkBytes,
          compactionTailEntries,
          preferSnapshotThresholdEntries,
          segmentSizeBytes,
          journalMadvise,
          journalPreallocation,
          maxPendingProposals,
          raftThreads,
          raftOnTransportThread,
          flushThreads);
    }
  }
}
