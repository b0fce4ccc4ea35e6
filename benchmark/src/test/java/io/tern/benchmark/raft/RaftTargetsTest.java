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
    return evaluate(ratePerS, Map.of());
  }

  private Map<String, RaftTargets.Verdict> evaluate(
      int ratePerS, Map<Integer, RaftTargets.Floor> floors) {
    return RaftTargets.evaluate(report, ratePerS, 1000, 1L << 30, false, floors).stream()
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
    assertTrue(tenPartitions.comment().startsWith("12.5% of the entries were in flight while"));
    // Latency limits and peer ratios hold in sync mode only.
    assertFalse(verdicts.keySet().stream().anyMatch(t -> t.contains("async")));
    assertFalse(
        verdicts.keySet().stream().anyMatch(t -> t.contains("against the peer")),
        "a saturated peer has no p99 to compare with, and no anchor was measured");
    // The report gained no rows from being judged.
    assertEquals(5, report.rows().size());
  }

  @Test
  void aLatencyVerdictSaysWhereTheDiskAloneWasAboveTheTarget() {
    latency("sync", 1, "p99", 6_000.0, "saturated");
    latency("sync", 1, "p99.9", 25_000.0, "saturated");
    latency("sync", 10, "p99", 12_000.0, "saturated");
    latency("sync", 10, "p99.9", 30_000.0, "saturated");
    report.put(RaftBenchmark.LATENCY, "sync", 10, "in flight in a stall", "%", true, TERN, 3.0);
    Map<Integer, RaftTargets.Floor> floors =
        Map.of(1, new RaftTargets.Floor(3.5, 12.7), 10, new RaftTargets.Floor(10.9, 22.2));

    Map<String, RaftTargets.Verdict> verdicts = evaluate(10_000, floors);

    String suffix = " partition(s), 10,000 entries/s";
    assertEquals("", verdicts.get("commit p99, sync, 1" + suffix).comment());
    assertEquals("", verdicts.get("commit p99.9, sync, 1" + suffix).comment());
    String tenP99 = verdicts.get("commit p99, sync, 10" + suffix).comment();
    assertTrue(tenP99.startsWith("3.0% of the entries were in flight"), tenP99);
    assertTrue(
        tenP99.endsWith(
            "; the disk alone, flushed as this cluster flushes, had a p99 of 10.9 ms in this run"
                + " (see the physical limit): above the target already"),
        tenP99);
    assertTrue(
        verdicts
            .get("commit p99.9, sync, 10" + suffix)
            .comment()
            .contains("; the disk alone, flushed as this cluster flushes, had a p99.9 of 22.2 ms"));
    assertFalse(verdicts.get("commit p99, sync, 10" + suffix).pass(), "still judged on Tern's");
  }

  @Test
  void aStallVerdictSaysWhenWakeUpsBesideTheFlushesFrozeTheMachineWithoutRaftCode() {
    latency("sync", 1, "p99", 18_000.0, "saturated");
    latency("sync", 10, "p99", 30_000.0, "saturated");
    report.put(RaftBenchmark.LATENCY, "sync", 1, "in flight in a stall", "%", true, TERN, 12.0);
    report.put(RaftBenchmark.LATENCY, "sync", 10, "in flight in a stall", "%", true, TERN, 20.0);
    RaftTargets.HandOffProbe froze = new RaftTargets.HandOffProbe(5_000, 15.2, 41);

    String suffix = " partition(s), 10,000 entries/s";
    String oneP99 =
        evaluate(10_000, Map.of(1, new RaftTargets.Floor(3.2, 5.1, 1, froze)))
            .get("commit p99, sync, 1" + suffix)
            .comment();
    assertTrue(
        oneP99.endsWith(
            "(see machine stalls); with no Raft code running, the flushes of the floor with 5,000"
                + " thread wake-up round trips a second beside them stalled the machine 41 times"
                + " (the flushes alone: 1)"),
        oneP99);
    // The probe speaks for the machine: it ran once, and every stalled verdict cites it.
    assertTrue(
        evaluate(10_000, Map.of(1, new RaftTargets.Floor(3.2, 5.1, 1, froze)))
            .get("commit p99, sync, 10" + suffix)
            .comment()
            .contains("stalled the machine 41 times"));

    // Not clearly more stalls than the flushes alone (or too few to tell): nothing is claimed.
    for (RaftTargets.Floor floor :
        List.of(
            new RaftTargets.Floor(3.2, 5.1, 20, new RaftTargets.HandOffProbe(5_000, 4.0, 41)),
            new RaftTargets.Floor(3.2, 5.1, 0, new RaftTargets.HandOffProbe(5_000, 4.0, 9)))) {
      String comment =
          evaluate(10_000, Map.of(1, floor)).get("commit p99, sync, 1" + suffix).comment();
      assertTrue(comment.endsWith("(see machine stalls)"), comment);
    }
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
    report.put(
        RaftBenchmark.FAILOVER, "async", 1, "kill to first commit, max", "ms", true, TERN, 1999.0);
    report.put(RaftBenchmark.SNAPSHOT, "sync", 0, "rate, 1024 MiB", "MB/s", false, TERN, 200.0);

    Map<String, RaftTargets.Verdict> verdicts = evaluate(10_000);

    assertFalse(verdicts.get("max throughput, sync, 1 partition(s)").pass(), "1.95x");
    assertTrue(verdicts.get("max throughput, sync, 3 partition(s)").pass(), "2.05x");
    assertFalse(verdicts.get("failover, sync, slowest kill to first commit").pass());
    assertTrue(verdicts.get("failover, async, slowest kill to first commit").pass());
    assertTrue(verdicts.get("snapshot install, rate, 1024 MiB").pass());
  }

  @Test
  void comparesWithThePeerAtTheAnchorRateOnlyWhereTheMainRateHadNothingToCompare() {
    latency("sync", 1, "p99", 4_000.0, "saturated");
    report.put(RaftBenchmark.ANCHOR_LATENCY, "sync", 1, "p99", "µs", true, TERN, 3_000.0);
    report.put(RaftBenchmark.ANCHOR_LATENCY, "sync", 1, "p99", "µs", true, RATIS, 5_000.0);

    RaftTargets.Verdict anchor =
        evaluate(10_000).get("commit p99 against the peer, anchor rate, sync, 1 partition(s)");
    assertFalse(anchor.pass(), "0.6x");

    latency("sync", 10, "p99", 4_000.0, 10_000.0);
    Map<String, RaftTargets.Verdict> verdicts = evaluate(10_000);
    assertTrue(
        verdicts.get("commit p99 against the peer, main rate, sync, 10 partition(s)").pass());
    assertFalse(verdicts.keySet().stream().anyMatch(t -> t.contains("anchor rate")));
  }

  @Test
  void ternSaturatedOrUnmeasuredWhereThePeerWasMeasuredFails() {
    latency("sync", 1, "p99", "saturated", 9_000.0);
    report.put(RaftBenchmark.THROUGHPUT, "sync", 1, "committed", "MB/s", false, TERN, null);
    report.put(RaftBenchmark.THROUGHPUT, "sync", 1, "committed", "MB/s", false, RATIS, 40.0);

    Map<String, RaftTargets.Verdict> verdicts = evaluate(10_000);

    RaftTargets.Verdict peer =
        verdicts.get("commit p99 against the peer, main rate, sync, 1 partition(s)");
    assertFalse(peer.pass());
    assertEquals("saturated where the peer sustained the rate", peer.figure());
    RaftTargets.Verdict throughput = verdicts.get("max throughput, sync, 1 partition(s)");
    assertFalse(throughput.pass());
    assertEquals("not measured", throughput.figure());
  }

  @Test
  void aLatencyVerdictMentionsStallsOnlyAboveOnePercentAndQuickRunsSayTheyAreIndicative() {
    latency("sync", 1, "p99", 4_000.0, "saturated");
    report.put(RaftBenchmark.LATENCY, "sync", 1, "in flight in a stall", "%", true, TERN, 1.0);

    String target = "commit p99, sync, 1 partition(s), 10,000 entries/s";
    assertEquals("", evaluate(10_000).get(target).comment());
    RaftTargets.Verdict quick =
        RaftTargets.evaluate(report, 10_000, 1000, 1L << 30, true, Map.of()).stream()
            .filter(v -> v.target().equals(target))
            .findFirst()
            .orElseThrow();
    assertEquals("quick run, indicative only", quick.comment());
  }

  @Test
  void aSnapshotSmallerThanTheTargetsIsNotJudged() {
    report.put(RaftBenchmark.SNAPSHOT, "sync", 0, "rate, 64 MiB", "MB/s", false, TERN, 138.0);

    assertTrue(RaftTargets.evaluate(report, 10_000, 1000, 64L << 20, false, Map.of()).isEmpty());
  }
}
