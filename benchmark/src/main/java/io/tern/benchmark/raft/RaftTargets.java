package io.tern.benchmark.raft;

import io.tern.benchmark.machine.StallWatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Checks a run's figures against the Raft targets (README, "Raft benchmark"), so that a run says
 * itself whether it met them. A target of a scenario the run left out is not listed.
 *
 * <p>Commit latency targets apply in {@code sync} mode at the rate they name; comparisons with the
 * peer in {@code sync} mode, where both sides promise the same durability. Where more than {@link
 * #STALLED_SHARE_LIMIT_PERCENT} of the entries were in flight while the process could not run (see
 * {@link StallWatch}), a latency verdict says so; so it does where the flush floor measured in the
 * same run was itself above the target. A target the run measured for another cluster but not for
 * Tern fails.
 */
final class RaftTargets {
  /** The offered rate the latency targets are stated at. */
  static final int TARGET_RATE_PER_S = 10_000;

  private static final String SYNC = "sync";
  private static final String NOT_MEASURED = "not measured";
  private static final String QUICK = "quick run, indicative only";

  static final double P99_LIMIT_MS = 5;
  static final double P999_LIMIT_MS = 20;
  static final double THROUGHPUT_MIN_RATIO = 2;
  static final double P99_MAX_RATIO = 0.5;
  static final double FAILOVER_MAX_ELECTION_TIMEOUTS = 2;
  static final double SNAPSHOT_MIN_MB_PER_S = 200;

  /** The snapshot size the install rate target is stated for: smaller ones pay fixed costs. */
  static final long SNAPSHOT_TARGET_BYTES = 1L << 30;

  /** Above this share of entries held up by stalls, a latency verdict mentions them. */
  static final double STALLED_SHARE_LIMIT_PERCENT = 1;

  /**
   * @param figure what was measured, with its unit
   * @param limit the target, with its unit
   * @param comment why the verdict may mislead, or empty
   */
  record Verdict(String target, String figure, String limit, boolean pass, String comment) {
    String line() {
      return String.format(
          Locale.ROOT,
          "%s %s: %s (target %s)%s",
          pass ? "PASS" : "FAIL",
          target,
          figure,
          limit,
          comment.isEmpty() ? "" : "; " + comment);
    }
  }

  /**
   * The disk's own flush latency measured in the same run for a partition count (every member's
   * journal flushed after each write, nothing else running), in ms, the machine stalls seen
   * meanwhile, and the hand-off probe if it ran with this partition count (else null).
   */
  record Floor(double p99Ms, double p999Ms, long stalls, HandOffProbe handOffs) {
    Floor(double p99Ms, double p999Ms) {
      this(p99Ms, p999Ms, 0, null);
    }
  }

  /**
   * The same flushes with two threads beside them waking each other {@code roundTripsPerS} times a
   * second (no Raft code): their p99 in ms and the machine stalls seen.
   */
  record HandOffProbe(int roundTripsPerS, double p99Ms, long stalls) {
    /** Stalls counted in one 5-second measurement that are more than noise. */
    static final long STALLS_WORTH_NOTING = 10;

    /**
     * Whether wake-ups beside the flushes froze the machine clearly more than the flushes alone.
     */
    static boolean freezes(long probeStalls, long floorStalls) {
      return probeStalls >= STALLS_WORTH_NOTING && probeStalls >= 3 * floorStalls;
    }
  }

  private final RaftReport report;
  private final Map<Integer, Floor> floors;
  private final int ratePerS;
  private final int electionTimeoutMinMs;
  private final long snapshotBytes;
  private final boolean quick;
  private final List<Verdict> verdicts = new ArrayList<>();

  private RaftTargets(
      RaftReport report,
      int ratePerS,
      int electionTimeoutMinMs,
      long snapshotBytes,
      boolean quick,
      Map<Integer, Floor> floors) {
    this.report = report;
    this.floors = floors;
    this.ratePerS = ratePerS;
    this.electionTimeoutMinMs = electionTimeoutMinMs;
    this.snapshotBytes = snapshotBytes;
    this.quick = quick;
  }

  /**
   * @param ratePerS the offered rate of the latency scenario
   * @param electionTimeoutMinMs the clusters' minimum election timeout
   * @param snapshotBytes the size of the snapshot installed
   * @param quick a smoke run: its percentiles rest on few samples
   * @param floors the flush floor measured per partition count; a latency verdict says where the
   *     disk alone was above the target
   */
  static List<Verdict> evaluate(
      RaftReport report,
      int ratePerS,
      int electionTimeoutMinMs,
      long snapshotBytes,
      boolean quick,
      Map<Integer, Floor> floors) {
    RaftTargets targets =
        new RaftTargets(report, ratePerS, electionTimeoutMinMs, snapshotBytes, quick, floors);
    targets.judge();
    return targets.verdicts;
  }

  private void judge() {
    boolean peerJudgedAtMainRate = false;
    for (RaftReport.Row row : report.rows()) {
      boolean sync = row.mode().equals(SYNC);
      switch (row.scenario()) {
        case RaftBenchmark.LATENCY -> {
          if (sync && ratePerS == TARGET_RATE_PER_S && row.metric().equals("p99")) {
            latency(row, P99_LIMIT_MS);
          } else if (sync && ratePerS == TARGET_RATE_PER_S && row.metric().equals("p99.9")) {
            latency(row, P999_LIMIT_MS);
          }
          if (sync && row.metric().equals("p99")) {
            peerJudgedAtMainRate |= p99AgainstPeer(row);
          }
        }
        case RaftBenchmark.THROUGHPUT -> {
          if (sync && row.unit().equals("MB/s")) {
            throughput(row);
          }
        }
        case RaftBenchmark.FAILOVER -> {
          if (row.metric().equals("kill to first commit, max")) {
            failover(row);
          }
        }
        case RaftBenchmark.SNAPSHOT -> {
          if (row.unit().equals("MB/s") && snapshotBytes >= SNAPSHOT_TARGET_BYTES) {
            snapshot(row);
          }
        }
        default -> {}
      }
    }
    if (!peerJudgedAtMainRate) {
      // The peer saturated at the main rate: compare where both sustained the rate.
      for (RaftReport.Row row : report.rows()) {
        if (row.scenario().equals(RaftBenchmark.ANCHOR_LATENCY)
            && row.mode().equals(SYNC)
            && row.metric().equals("p99")) {
          p99AgainstPeer(row);
        }
      }
    }
  }

  private void latency(RaftReport.Row row, double limitMs) {
    String target =
        String.format(
            Locale.ROOT,
            "commit %s, sync, %d partition(s), %,d entries/s",
            row.metric(),
            row.partitions(),
            ratePerS);
    String limit = "<= " + (int) limitMs + " ms";
    Object tern = row.values().get(Clusters.TERN);
    if (tern instanceof Double micros) {
      add(
          target,
          String.format(Locale.ROOT, "%.1f ms", micros / 1e3),
          limit,
          micros / 1e3 <= limitMs,
          join(stallComment(row), floorComment(row, limitMs)));
    } else {
      add(target, tern == null ? NOT_MEASURED : tern.toString(), limit, false, "");
    }
  }

  /**
   * Tern's p99 over the peer's, in sync mode (the peer's other modes do not map one to one). Tern
   * saturated where the peer did not fails. Returns whether a verdict was given.
   */
  private boolean p99AgainstPeer(RaftReport.Row row) {
    Object tern = row.values().get(Clusters.TERN);
    Object peer = report.baselineValue(row);
    if (!(peer instanceof Double)) {
      return false; // no peer, or it saturated too: nothing to compare with
    }
    String target =
        String.format(
            Locale.ROOT,
            "commit p99 against the peer, %s, %s, %d partition(s)",
            row.scenario().equals(RaftBenchmark.ANCHOR_LATENCY) ? "anchor rate" : "main rate",
            row.mode(),
            row.partitions());
    String limit = "<= " + P99_MAX_RATIO + "x";
    if (tern instanceof Double micros) {
      double ratio = report.ratio(row);
      add(
          target,
          String.format(Locale.ROOT, "%.1f ms, %.2fx %s", micros / 1e3, ratio, report.ratioName()),
          limit,
          ratio <= P99_MAX_RATIO,
          "");
    } else {
      add(
          target,
          (tern == null ? NOT_MEASURED : tern.toString()) + " where the peer sustained the rate",
          limit,
          false,
          "");
    }
    return true;
  }

  private void throughput(RaftReport.Row row) {
    Object tern = row.values().get(Clusters.TERN);
    String target = "max throughput, " + row.mode() + ", " + row.partitions() + " partition(s)";
    String limit = ">= " + THROUGHPUT_MIN_RATIO + "x";
    double ratio = report.ratio(row);
    if (tern instanceof Double rate && !Double.isNaN(ratio)) {
      add(
          target,
          String.format(Locale.ROOT, "%.1f MB/s, %.2fx %s", rate, ratio, report.ratioName()),
          limit,
          ratio >= THROUGHPUT_MIN_RATIO,
          "");
    } else if (!(tern instanceof Double) && report.baselineValue(row) instanceof Double) {
      add(target, NOT_MEASURED, limit, false, "");
    }
  }

  private void failover(RaftReport.Row row) {
    Object tern = row.values().get(Clusters.TERN);
    double limitMs = FAILOVER_MAX_ELECTION_TIMEOUTS * electionTimeoutMinMs;
    add(
        "failover, " + row.mode() + ", slowest kill to first commit",
        tern instanceof Double ms ? String.format(Locale.ROOT, "%.0f ms", ms) : NOT_MEASURED,
        String.format(
            Locale.ROOT,
            "<= %.0f ms, %.0fx the minimum election timeout of %d ms",
            limitMs,
            FAILOVER_MAX_ELECTION_TIMEOUTS,
            electionTimeoutMinMs),
        tern instanceof Double ms && ms <= limitMs,
        "");
  }

  private void snapshot(RaftReport.Row row) {
    Object tern = row.values().get(Clusters.TERN);
    add(
        "snapshot install, " + row.metric(),
        tern instanceof Double rate ? String.format(Locale.ROOT, "%.0f MB/s", rate) : NOT_MEASURED,
        ">= " + (int) SNAPSHOT_MIN_MB_PER_S + " MB/s",
        tern instanceof Double rate && rate >= SNAPSHOT_MIN_MB_PER_S,
        "");
  }

  private void add(String target, String figure, String limit, boolean pass, String comment) {
    String note = quick ? (comment.isEmpty() ? QUICK : comment + "; " + QUICK) : comment;
    verdicts.add(new Verdict(target, figure, limit, pass, note));
  }

  /** Says so where the disk alone, flushed as the cluster flushes, was above the target. */
  private String floorComment(RaftReport.Row row, double limitMs) {
    Floor floor = floors.get(row.partitions());
    if (floor == null) {
      return "";
    }
    double floorMs = row.metric().equals("p99") ? floor.p99Ms() : floor.p999Ms();
    if (floorMs <= limitMs) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        "the disk alone, flushed as this cluster flushes, had a %s of %.1f ms in this run (see"
            + " the physical limit): above the target already",
        row.metric(),
        floorMs);
  }

  private static String join(String first, String second) {
    if (first.isEmpty() || second.isEmpty()) {
      return first + second;
    }
    return first + "; " + second;
  }

  private String stallComment(RaftReport.Row row) {
    RaftReport.Row stalled =
        report.find(row.scenario(), row.mode(), row.partitions(), "in flight in a stall", "%");
    Object share = stalled == null ? null : stalled.values().get(Clusters.TERN);
    if (share instanceof Double percent && percent > STALLED_SHARE_LIMIT_PERCENT) {
      return String.format(
              Locale.ROOT,
              "%.1f%% of the entries were in flight while the process could not run for %d ms or"
                  + " more (see machine stalls)",
              percent,
              TimeUnit.NANOSECONDS.toMillis(StallWatch.STALL_THRESHOLD_NS))
          + handOffComment();
    }
    return "";
  }

  /** Where the probe showed it, that the machine freezes without any Raft code running. */
  private String handOffComment() {
    for (Floor floor : floors.values()) {
      HandOffProbe probe = floor.handOffs();
      if (probe != null && HandOffProbe.freezes(probe.stalls(), floor.stalls())) {
        return String.format(
            Locale.ROOT,
            "; with no Raft code running, the flushes of the floor with %,d thread wake-up round"
                + " trips a second beside them stalled the machine %d times (the flushes alone:"
                + " %d)",
            probe.roundTripsPerS(),
            probe.stalls(),
            floor.stalls());
      }
    }
    return "";
  }
}
