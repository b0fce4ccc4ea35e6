package io.tern.benchmark.raft;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Checks a run's figures against the Raft targets (README, "Raft benchmark"), so that a run says
 * itself whether it met them. A target whose figures the run did not measure is not listed.
 *
 * <p>Commit latency targets apply in {@code sync} mode at the rate they name; where more than
 * {@link #STALLED_SHARE_LIMIT_PERCENT} of the entries were in flight during a machine stall, the
 * verdict says so (the p99 then measures the machine's freezes more than the cluster).
 */
final class RaftTargets {
  /** The offered rate the latency targets are stated at. */
  static final int TARGET_RATE_PER_S = 10_000;

  static final double P99_LIMIT_MS = 5;
  static final double P999_LIMIT_MS = 20;
  static final double THROUGHPUT_MIN_RATIO = 2;
  static final double P99_MAX_RATIO = 0.5;
  static final double FAILOVER_MAX_ELECTION_TIMEOUTS = 2;
  static final double SNAPSHOT_MIN_MB_PER_S = 200;

  /** The snapshot size the install rate target is stated for: smaller ones pay fixed costs. */
  static final long SNAPSHOT_TARGET_BYTES = 1L << 30;

  /** Entries held up by stalls above this share make the percentiles the machine's. */
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

  private final RaftReport report;
  private final int ratePerS;
  private final int electionTimeoutMinMs;
  private final long snapshotBytes;
  private final List<Verdict> verdicts = new ArrayList<>();

  private RaftTargets(
      RaftReport report, int ratePerS, int electionTimeoutMinMs, long snapshotBytes) {
    this.report = report;
    this.ratePerS = ratePerS;
    this.electionTimeoutMinMs = electionTimeoutMinMs;
    this.snapshotBytes = snapshotBytes;
  }

  /**
   * @param ratePerS the offered rate of the latency scenario
   * @param electionTimeoutMinMs the clusters' minimum election timeout
   * @param snapshotBytes the size of the snapshot installed
   */
  static List<Verdict> evaluate(
      RaftReport report, int ratePerS, int electionTimeoutMinMs, long snapshotBytes) {
    RaftTargets targets = new RaftTargets(report, ratePerS, electionTimeoutMinMs, snapshotBytes);
    for (RaftReport.Row row : report.rows()) {
      targets.check(row);
    }
    return targets.verdicts;
  }

  private void check(RaftReport.Row row) {
    Object tern = row.values().get(Clusters.TERN);
    switch (row.scenario()) {
      case RaftBenchmark.LATENCY -> {
        if (row.mode().equals("sync") && ratePerS == TARGET_RATE_PER_S) {
          if (row.metric().equals("p99")) {
            latency(row, tern, "p99", P99_LIMIT_MS);
          } else if (row.metric().equals("p99.9")) {
            latency(row, tern, "p99.9", P999_LIMIT_MS);
          }
        }
        if (row.metric().equals("p99")) {
          p99AgainstPeer(row, tern);
        }
      }
      case RaftBenchmark.ANCHOR_LATENCY -> {
        if (row.metric().equals("p99")) {
          p99AgainstPeer(row, tern);
        }
      }
      case RaftBenchmark.THROUGHPUT -> {
        if (row.unit().equals("MB/s") && tern instanceof Double) {
          double ratio = report.ratio(row);
          if (!Double.isNaN(ratio)) {
            verdicts.add(
                new Verdict(
                    "max throughput, " + row.mode() + ", " + row.partitions() + " partition(s)",
                    String.format(
                        Locale.ROOT, "%.1f MB/s, %.2fx %s", tern, ratio, report.ratioName()),
                    ">= " + THROUGHPUT_MIN_RATIO + "x",
                    ratio >= THROUGHPUT_MIN_RATIO,
                    ""));
          }
        }
      }
      case RaftBenchmark.FAILOVER -> {
        if (row.metric().equals("kill to first commit, max") && tern instanceof Double ms) {
          double limitMs = FAILOVER_MAX_ELECTION_TIMEOUTS * electionTimeoutMinMs;
          verdicts.add(
              new Verdict(
                  "failover, " + row.mode() + ", slowest kill to first commit",
                  String.format(Locale.ROOT, "%.0f ms", ms),
                  String.format(
                      Locale.ROOT,
                      "<= %.0f ms, %.0fx the %d ms election timeout",
                      limitMs,
                      FAILOVER_MAX_ELECTION_TIMEOUTS,
                      electionTimeoutMinMs),
                  ms <= limitMs,
                  ""));
        }
      }
      case RaftBenchmark.SNAPSHOT -> {
        if (row.unit().equals("MB/s")
            && tern instanceof Double rate
            && snapshotBytes >= SNAPSHOT_TARGET_BYTES) {
          verdicts.add(
              new Verdict(
                  "snapshot install, " + row.metric(),
                  String.format(Locale.ROOT, "%.0f MB/s", rate),
                  ">= " + (int) SNAPSHOT_MIN_MB_PER_S + " MB/s",
                  rate >= SNAPSHOT_MIN_MB_PER_S,
                  ""));
        }
      }
      default -> {}
    }
  }

  private void latency(RaftReport.Row row, Object tern, String percentile, double limitMs) {
    String target =
        String.format(
            Locale.ROOT,
            "commit %s, sync, %d partition(s), %,d entries/s",
            percentile,
            row.partitions(),
            ratePerS);
    String limit = "<= " + (int) limitMs + " ms";
    if (!(tern instanceof Double micros)) {
      if (tern != null) {
        verdicts.add(new Verdict(target, tern.toString(), limit, false, ""));
      }
      return;
    }
    verdicts.add(
        new Verdict(
            target,
            String.format(Locale.ROOT, "%.1f ms", micros / 1e3),
            limit,
            micros / 1e3 <= limitMs,
            stallComment(row)));
  }

  /** The main rate where both clusters sustained it; the anchor row covers those that did not. */
  private void p99AgainstPeer(RaftReport.Row row, Object tern) {
    double ratio = report.ratio(row);
    if (!(tern instanceof Double micros) || Double.isNaN(ratio)) {
      return;
    }
    verdicts.add(
        new Verdict(
            String.format(
                Locale.ROOT,
                "commit p99 against the peer, %s, %s, %d partition(s)",
                row.scenario().equals(RaftBenchmark.ANCHOR_LATENCY) ? "anchor rate" : "main rate",
                row.mode(),
                row.partitions()),
            String.format(
                Locale.ROOT, "%.1f ms, %.2fx %s", micros / 1e3, ratio, report.ratioName()),
            "<= " + P99_MAX_RATIO + "x",
            ratio <= P99_MAX_RATIO,
            ""));
  }

  private String stallComment(RaftReport.Row row) {
    RaftReport.Row stalled =
        report.find(row.scenario(), row.mode(), row.partitions(), "in flight in a stall", "%");
    Object share = stalled == null ? null : stalled.values().get(Clusters.TERN);
    if (share instanceof Double percent && percent > STALLED_SHARE_LIMIT_PERCENT) {
      return String.format(
          Locale.ROOT, "%.1f%% of the entries were in flight in a machine stall", percent);
    }
    return "";
  }
}
