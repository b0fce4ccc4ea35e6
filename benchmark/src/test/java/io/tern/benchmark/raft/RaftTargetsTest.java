package io.tern.benchmark.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RaftTargetsTest {
  private static final String TERN = Clusters.TERN;
  private static final String RATIS = "ratis";

  private final RaftReport report = new RaftReport(List.of(TERN, RATIS));

  private Map<String, RaftTargets.Verdict> evaluate(int ratePerS) {
    return RaftTargets.evaluate(report, ratePerS, 1000, 1L << 30).stream()
        .collect(Collectors.toMap(RaftTargets.Verdict::target, Function.identity()));
  }

  private void latency(String mode, int partitions, String metric, Object tern, Object ratis) {
    report.put(RaftBenchmark.LATENCY, mode, partitions, metric, "µs", true, TERN, tern);
    report.put(RaftBenchmark.LATENCY, mode, partitions, metric, "µs", true, RATIS, ratis);
  }

  @Test
  void judgesSyncLatencyAtTheTargetRateAndSaysWhenStallsHeldEntriesUp() {
    latency("sync", 1, "p99", 4_900.0, "saturated");
    latency("sync", 1, "p99.9", 20_100.0, "saturated");
    latency("sync", 10, "p99", 5_100.0, "saturated");
    report.put(RaftBenchmark.LATENCY, "sync", 10, "in flight in a stall", "%", true, TERN, 12.5);
    latency("async", 1, "p99", 9_000.0, 20_000.0);

    Map<String, RaftTargets.Verdict> verdicts = evaluate(10_000);

    RaftTargets.Verdict p99 = verdicts.get("commit p99, sync, 1 partition(s), 10,000 entries/s");
    assertTrue(p99.pass(), p99.line());
    assertEquals("", p99.comment());
    assertFalse(verdicts.get("commit p99.9, sync, 1 partition(s), 10,000 entries/s").pass());
    RaftTargets.Verdict tenPartitions =
        verdicts.get("commit p99, sync, 10 partition(s), 10,000 entries/s");
    assertFalse(tenPartitions.pass());
    assertEquals("12.5% of the entries were in flight in a machine stall", tenPartitions.comment());
    // Latency limits hold in sync mode only; the peer ratio in every mode where both sustained it.
    assertFalse(verdicts.keySet().stream().anyMatch(t -> t.startsWith("commit p99, async")));
    assertTrue(
        verdicts.get("commit p99 against the peer, main rate, async, 1 partition(s)").pass());
    assertFalse(
        verdicts.keySet().stream().anyMatch(t -> t.contains("against the peer, main rate, sync")),
        "a saturated peer has no p99 to compare with");
    // The report gained no rows from being judged.
    assertEquals(5, report.rows().size());
  }

  @Test
  void latencyLimitsApplyOnlyAtTheRateTheyAreStatedFor() {
    latency("sync", 1, "p99", 1_000.0, 5_000.0);

    Map<String, RaftTargets.Verdict> verdicts = evaluate(2_000);

    assertFalse(verdicts.keySet().stream().anyMatch(t -> t.startsWith("commit p99, sync")));
    assertTrue(verdicts.get("commit p99 against the peer, main rate, sync, 1 partition(s)").pass());
  }

  @Test
  void aSaturatedTernFailsTheLatencyTarget() {
    latency("sync", 30, "p99", "saturated", "saturated");

    RaftTargets.Verdict verdict =
        evaluate(10_000).get("commit p99, sync, 30 partition(s), 10,000 entries/s");

    assertFalse(verdict.pass());
    assertEquals("saturated", verdict.figure());
  }

  @Test
  void judgesThroughputFailoverAndSnapshotAgainstTheirLimits() {
    report.put(RaftBenchmark.THROUGHPUT, "sync", 1, "committed", "MB/s", false, TERN, 86.0);
    report.put(RaftBenchmark.THROUGHPUT, "sync", 1, "committed", "MB/s", false, RATIS, 44.0);
    report.put(RaftBenchmark.THROUGHPUT, "sync", 3, "committed", "MB/s", false, TERN, 86.0);
    report.put(RaftBenchmark.THROUGHPUT, "sync", 3, "committed", "MB/s", false, RATIS, 42.0);
    report.put(
        RaftBenchmark.FAILOVER, "sync", 1, "kill to first commit, max", "ms", true, TERN, 2001.0);
    report.put(RaftBenchmark.SNAPSHOT, "sync", 0, "rate, 1024 MiB", "MB/s", false, TERN, 200.0);

    Map<String, RaftTargets.Verdict> verdicts = evaluate(10_000);

    assertFalse(verdicts.get("max throughput, sync, 1 partition(s)").pass(), "1.95x");
    assertTrue(verdicts.get("max throughput, sync, 3 partition(s)").pass(), "2.05x");
    assertFalse(verdicts.get("failover, sync, slowest kill to first commit").pass());
    assertTrue(verdicts.get("snapshot install, rate, 1024 MiB").pass());
  }

  @Test
  void aSnapshotSmallerThanTheTargetsIsNotJudged() {
    report.put(RaftBenchmark.SNAPSHOT, "sync", 0, "rate, 64 MiB", "MB/s", false, TERN, 138.0);

    assertTrue(RaftTargets.evaluate(report, 10_000, 1000, 64L << 20).isEmpty());
  }
}
