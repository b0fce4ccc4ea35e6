package io.tern.benchmark.raft;

import static io.tern.benchmark.raft.ClusterUnderTest.SETTING_ELECTION_TIMEOUT;
import static io.tern.benchmark.raft.ClusterUnderTest.SETTING_FLUSH;

import io.tern.benchmark.common.Experiments;
import io.tern.benchmark.raft.ClusterUnderTest.Spec;
import io.tern.journal.JournalConfig;
import io.tern.raft.RaftConfig;
import io.tern.raft.server.FlushMode;
import io.tern.raft.server.RaftServerConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The configuration of {@link TernCluster}'s members: Tern's defaults, except the timing the
 * benchmark's spec asks for, what the experiment properties set, and what makes the snapshot
 * measurement and the comparison with Ratis fair; and its description for the report.
 */
final class TernSettings {
  private static final int TICKS_PER_HEARTBEAT = 2;
  private static final int HEARTBEATS_PER_ELECTION_TIMEOUT = 10;

  /** As the Ratis adapter's log segments, so that both preallocate alike. */
  static final int SEGMENT_SIZE_BYTES = 32 * 1024 * 1024;

  private static final JournalConfig.Preallocation JOURNAL_PREALLOCATION =
      Experiments.journalPreallocation();

  private TernSettings() {}

  /** Every member's configuration but its data directory. */
  static RaftServerConfig.Builder template(Spec spec) {
    FlushMode mode = FlushMode.parse(spec.flushMode());
    int heartbeatMs = Math.max(2, spec.electionTimeoutMinMs() / HEARTBEATS_PER_ELECTION_TIMEOUT);
    return RaftServerConfig.builder(spec.dataDir())
        .tickMs(Math.max(1, heartbeatMs / TICKS_PER_HEARTBEAT))
        .heartbeatIntervalMs(heartbeatMs)
        .electionTimeoutMs(spec.electionTimeoutMinMs())
        .flushMode(mode)
        .flushDelayMs(
            Experiments.whole(
                Experiments.RAFT_FLUSH_DELAY_MS, RaftServerConfig.DEFAULT_FLUSH_DELAY_MS, 0))
        // As the Ratis adapter's log segments, so that both preallocate alike.
        .segmentSizeBytes(SEGMENT_SIZE_BYTES)
        // The snapshot measurement needs a follower behind the compacted log.
        .compactionTailEntries(0)
        .journalPreallocation(JOURNAL_PREALLOCATION)
        .maxInflightAppends(
            Experiments.count(
                Experiments.RAFT_MAX_INFLIGHT_APPENDS, RaftConfig.DEFAULT_MAX_INFLIGHT_APPENDS))
        .raftThreads(
            Experiments.count(Experiments.RAFT_THREADS, RaftServerConfig.DEFAULT_RAFT_THREADS))
        .raftOnTransportThread(
            Experiments.flag(
                Experiments.RAFT_ON_TRANSPORT_THREAD,
                RaftServerConfig.DEFAULT_RAFT_ON_TRANSPORT_THREAD))
        .flushThreads(
            Experiments.count(
                Experiments.RAFT_FLUSH_THREADS, RaftServerConfig.DEFAULT_FLUSH_THREADS));
  }

  /** For the report: what the figures were measured with. */
  static Map<String, String> describe(RaftServerConfig config) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(
        SETTING_ELECTION_TIMEOUT,
        config.electionTimeoutMs() + ".." + 2 * config.electionTimeoutMs() + " ms");
    settings.put(
        SETTING_FLUSH,
        "raft.flush.mode="
            + config.flushMode().name().toLowerCase(java.util.Locale.ROOT)
            + (config.flushMode() == FlushMode.DELAYED || config.flushMode() == FlushMode.ASYNC
                ? " delayMs=" + config.flushDelayMs()
                : ""));
    settings.put(
        "heartbeat", config.heartbeatIntervalMs() + " ms, tick " + config.tickMs() + " ms");
    settings.put(
        "pipeline",
        config.maxInflightAppends()
            + " appends in flight per follower, "
            + config.maxAppendBatchBytes() / 1024
            + " KiB per append");
    settings.put("transport", "Netty TCP, one connection per member pair");
    settings.put(
        "threads per member",
        (config.raftOnTransportThread()
                ? "Raft groups on the transport's thread"
                : "up to " + config.raftThreads() + " Raft threads")
            + ", up to "
            + config.flushThreads()
            + " flush threads");
    return settings;
  }
}
