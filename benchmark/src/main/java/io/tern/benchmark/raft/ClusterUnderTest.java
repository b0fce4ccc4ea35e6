package io.tern.benchmark.raft;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A replicated log under test: {@code members} Raft members in this JVM, talking over loopback, and
 * {@code partitions} independent Raft groups replicated by all of them. The Raft benchmark drives
 * every implementation through this interface only, so that figures are comparable; an adapter
 * joins the benchmark with one line in {@link Clusters}.
 *
 * <p>An instance is started once and closed once; the benchmark creates a fresh instance (and a
 * fresh data directory) for every measurement.
 */
public interface ClusterUnderTest extends AutoCloseable {

  /** Key of {@link #settings()}: the election timeout as configured, e.g. "1000..2000 ms". */
  String SETTING_ELECTION_TIMEOUT = "election timeout";

  /** Key of {@link #settings()}: what the requested flush mode was mapped to. */
  String SETTING_FLUSH = "flush";

  /** What to start; every adapter gets the same. */
  record Spec(
      Path dataDir, int members, int partitions, String flushMode, int electionTimeoutMinMs) {

    /** Flush modes, as in Tern's {@code raft.flush.mode}. */
    public static final String FLUSH_SYNC = "sync";

    /** Flushes grouped over a short period; acknowledgements still wait for them. */
    public static final String FLUSH_DELAYED = "delayed";

    /** Acknowledge before the flush, flush in the background (a majority crash can lose data). */
    public static final String FLUSH_ASYNC = "async";

    /** Never flush. */
    public static final String FLUSH_OFF = "off";

    /**
     * Election timeouts are randomized in [min, 2 × min), as Tern does (it randomizes up to twice
     * its configured timeout); adapters configure their implementation accordingly.
     */
    public int electionTimeoutMaxMs() {
      return 2 * electionTimeoutMinMs;
    }
  }

  /** Short name with version, e.g. "tern" or "ratis 3.3.0"; the column header in the report. */
  String name();

  /**
   * Starts all members on loopback, with their data under {@code spec.dataDir()} (which exists and
   * is empty). Throws {@link IllegalArgumentException} with a clear message for a flush mode the
   * implementation cannot map.
   */
  void start(Spec spec) throws Exception;

  /**
   * The settings the figures were measured with, for the report (valid after {@link #start}): at
   * least {@link #SETTING_ELECTION_TIMEOUT} and {@link #SETTING_FLUSH}.
   */
  Map<String, String> settings();

  /** Returns once every partition has a leader that accepts appends. */
  void awaitLeaders(Duration timeout) throws Exception;

  /**
   * Appends one entry to a partition; the future completes once the entry is committed (stored by a
   * majority as the flush mode defines it) and fails if it was not. Must not block for long: the
   * benchmark calls it from its open-loop scheduler. {@code data} is never modified after the call
   * and may be shared between calls, so the adapter may keep a reference instead of copying.
   */
  CompletableFuture<Void> append(int partition, byte[] data);

  /**
   * Stops the member currently leading {@code partition} abruptly, as a crash would (no leadership
   * transfer, no goodbye to the followers), and returns its member id. Returns as soon as the
   * member is unreachable; cleanup may continue in the background.
   */
  int killLeader(int partition) throws Exception;

  /**
   * Starts a killed member again from its data directory; returns once it runs and follows a leader
   * in every partition (it may still be catching up).
   */
  void restart(int memberId) throws Exception;

  /**
   * Makes partition 0's leader hold a state-machine snapshot of {@code bytes} bytes that one
   * follower must receive (the follower is behind the leader's compacted log), and returns how long
   * the transfer took, from the first snapshot chunk the follower received until the follower
   * installed it. Called on a freshly started cluster.
   *
   * @throws UnsupportedOperationException where the implementation cannot do it yet
   */
  Duration measureSnapshotInstall(long bytes) throws Exception;

  /**
   * Where the time went in the measurement just run, as the implementation's own metrics see it
   * (e.g. flush latency per member), one line each for the progress log; empty if it has none.
   */
  default List<String> diagnostics() {
    return List.of();
  }

  /** Stops every member and client; what a measurement left behind must not slow the next one. */
  @Override
  void close() throws IOException;
}
