package io.tern.benchmark.raft;

import io.tern.benchmark.raft.ClusterUnderTest.Spec;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.TimeDuration;

/** The Ratis server settings of the benchmark: Ratis defaults except for the lines below. */
final class RatisSettings {
  /** Ratis' default chunk size for snapshot installs; stated in the report. */
  static final long SNAPSHOT_CHUNK_BYTES =
      RaftServerConfigKeys.Log.Appender.SNAPSHOT_CHUNK_SIZE_MAX_DEFAULT.getSize();

  /**
   * Minimum time between two AppendEntries a leader sends to one follower. Ratis' configuration
   * reference documents 10 ms, but since RATIS-1886 (2023; 3.3.0 included) the code's default is 1
   * ms: with 1 KiB entries the leader then sends an AppendEntries of two or three entries every
   * millisecond or so, and per-RPC work (gRPC, a force on each follower, commit and apply hand-offs
   * between threads) uses up the cores of a small machine at a low entry rate. The documented value
   * lets entries group into AppendEntries of dozens, for a much higher throughput; an idle follower
   * still gets an entry at once (the wait counts from the last send).
   */
  static final long APPENDER_WAIT_MIN_MS = 10;

  private RatisSettings() {}

  static RaftProperties server(Spec spec, Path storageDir, int port) {
    RaftProperties properties = new RaftProperties();
    RaftServerConfigKeys.setStorageDir(properties, List.of(storageDir.toFile()));
    GrpcConfigKeys.Server.setHost(properties, "127.0.0.1");
    GrpcConfigKeys.Server.setPort(properties, port);
    // Tern's election timeout: randomized in [min, 2 × min). Ratis derives its heartbeat interval
    // from the minimum (half of it).
    RaftServerConfigKeys.Rpc.setTimeoutMin(properties, millis(spec.electionTimeoutMinMs()));
    RaftServerConfigKeys.Rpc.setTimeoutMax(properties, millis(spec.electionTimeoutMaxMs()));
    // Only the very first election after a cluster starts: short, so that each measurement starts
    // quickly. Failovers use the timeouts above.
    RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMin(properties, millis(150));
    RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMax(properties, millis(300));
    RaftServerConfigKeys.Log.Appender.setWaitTimeMin(properties, millis(APPENDER_WAIT_MIN_MS));
    switch (spec.flushMode()) {
      case Spec.FLUSH_SYNC -> {
        // Ratis' default: the log worker forces the segment before the entry counts as persisted.
      }
      case Spec.FLUSH_DELAYED ->
          // No timed group flush in Ratis; async-flush is its nearest safe mode: acknowledgements
          // still wait for the force, but the log worker keeps writing while it runs, so forces
          // group more entries.
          RaftServerConfigKeys.Log.setAsyncFlushEnabled(properties, true);
      case Spec.FLUSH_ASYNC, Spec.FLUSH_OFF ->
          // Entries count as persisted once written; the force runs afterwards in the background.
          // Ratis has no way to skip the force, so "off" maps here too.
          RaftServerConfigKeys.Log.setUnsafeFlushEnabled(properties, true);
      default ->
          throw new IllegalArgumentException("Ratis: unknown flush mode " + spec.flushMode());
    }
    // For the snapshot measurement: purge the log up to a new snapshot at once, so that a lagging
    // follower must receive the snapshot. Without a snapshot (every other measurement) no purge
    // happens.
    RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
    RaftServerConfigKeys.Log.setPurgeGap(properties, 1);
    return properties;
  }

  /** For the report: what the figures were measured with. */
  static Map<String, String> describe(Spec spec, boolean direct) {
    RaftProperties properties = server(spec, spec.dataDir(), 0);
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(
        ClusterUnderTest.SETTING_ELECTION_TIMEOUT,
        spec.electionTimeoutMinMs()
            + ".."
            + spec.electionTimeoutMaxMs()
            + " ms (raft.server.rpc.timeout.min/max; heartbeat every half the minimum)");
    settings.put(
        ClusterUnderTest.SETTING_FLUSH,
        switch (spec.flushMode()) {
          case Spec.FLUSH_SYNC -> "Ratis default (force before ack)";
          case Spec.FLUSH_DELAYED -> "async-flush.enabled (nearest; Ratis has no timed flush)";
          case Spec.FLUSH_ASYNC -> "unsafe-flush.enabled (ack before force)";
          case Spec.FLUSH_OFF -> "unsafe-flush.enabled (nearest; Ratis always forces eventually)";
          default -> spec.flushMode();
        });
    settings.put(
        "appender wait",
        RaftServerConfigKeys.Log.Appender.waitTimeMin(properties).toLong(TimeUnit.MILLISECONDS)
            + " ms between AppendEntries to a follower (raft.server.log.appender.wait-time.min; the"
            + " documented default, the code's is 1 ms)");
    settings.put("transport", "gRPC");
    settings.put(
        "client",
        direct
            ? "none: appends submitted to the leader's RaftServer in-process"
            : "RaftClient async API over gRPC, one client per partition");
    settings.put(
        "segment size",
        (RaftServerConfigKeys.Log.segmentSizeMax(properties).getSize() >> 20) + " MiB");
    settings.put(
        "force sync num", Integer.toString(RaftServerConfigKeys.Log.forceSyncNum(properties)));
    settings.put("snapshot chunk", (SNAPSHOT_CHUNK_BYTES >> 20) + " MiB");
    return settings;
  }

  static TimeDuration millis(long ms) {
    return TimeDuration.valueOf(ms, TimeUnit.MILLISECONDS);
  }
}
