package io.tern.benchmark.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.benchmark.chaos.Op.Kind;
import io.tern.benchmark.chaos.Op.Outcome;
import io.tern.engine.record.Keys;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * "Processing again": how long after a fault every partition acknowledged new work, read from the
 * history: the slowest partition's first acknowledged creation or completion sent after the fault.
 */
class ChaosReportTest {
  private static final Op FAULT =
      Op.of(Kind.FAULT, Outcome.OK, null)
          .withTimes(1_000, 9_000)
          .withVars(java.util.Map.of("injectedMs", "50"));

  private static Op create(int partition, long start, long end, Outcome outcome) {
    return Op.of(Kind.CREATE, outcome, "b")
        .withTimes(start, end)
        .withInstance(Keys.encode(partition, 7));
  }

  @Test
  void theSlowestPartitionsFirstAcknowledgedWorkAfterTheFaultCounts() {
    List<Op> history =
        List.of(
            FAULT,
            create(1, 900, 1_100, Outcome.OK), // sent before the fault: not counted
            create(1, 1_020, 1_060, Outcome.OK), // sent while it was being injected: not counted
            create(1, 1_100, 1_150, Outcome.OK),
            create(2, 1_200, 2_500, Outcome.UNKNOWN), // no answer: not counted
            Op.of(Kind.COMPLETE, Outcome.OK, "b")
                .withTimes(1_300, 4_000)
                .withJob(Keys.encode(2, 9), "first"),
            create(2, 1_400, 4_200, Outcome.OK));

    assertThat(ChaosReport.processingAgainMs(FAULT, null, history, 2)).isEqualTo(2_950);
    assertThat(ChaosReport.processingAgainMs(FAULT, 3_900L, history, 2))
        .as("partition 2 answered only after the next fault began")
        .isNull();
  }

  @Test
  void aPartitionThatNeverAnsweredAgainHasNoFigure() {
    List<Op> history = List.of(FAULT, create(1, 1_100, 1_150, Outcome.OK));

    assertThat(ChaosReport.processingAgainMs(FAULT, null, history, 2)).isNull();
  }

  @Test
  void aFailoverOverTheHoldCountsAsTheSlowestNotAsMissing() {
    List<Long> failovers = new java.util.ArrayList<>(List.of(900L, 1_200L));
    failovers.add(Long.MAX_VALUE);
    failovers.add(Long.MAX_VALUE);

    assertThat(ChaosReport.distribution(failovers, 8_000))
        .isEqualTo("n=4 (2 over the 8000 ms hold), min 900 ms, median >8000 ms, max >8000 ms");
    assertThat(ChaosReport.distribution(List.of(900L, 1_200L)))
        .isEqualTo("n=2, min 900 ms, median 1200 ms, max 1200 ms");
  }

  @Test
  void theSummaryListsAFaultWithoutFailoverWithinTheHoldAsOverTheHold(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    ChaosOptions options =
        ChaosOptions.parse(new String[] {"--dir", dir.toString(), "--hold", "8s"});
    Op slow =
        Op.of(Kind.FAULT, Outcome.OK, null)
            .withTimes(1_000, 9_000)
            .withVars(
                java.util.Map.of(
                    "injectedMs", "50", "recoveredMs", "700", "failoverMs", ChaosReport.OVER_HOLD))
            .withDetail("kill-leader: kill -9 broker 1");
    Op quick =
        Op.of(Kind.FAULT, Outcome.OK, null)
            .withTimes(20_000, 28_000)
            .withVars(
                java.util.Map.of("injectedMs", "50", "recoveredMs", "600", "failoverMs", "1100"))
            .withDetail("pause: SIGSTOP broker 2");
    List<Op> history = List.of(slow, quick);

    String summary = ChaosReport.render(options, Checker.check(history), history);

    assertThat(summary)
        .contains("| kill-leader: kill -9 broker 1 | >8000 |")
        .contains(
            "failover (a leader for every partition among the brokers left up): n=2 (1 over the"
                + " 8000 ms hold), min 1100 ms, median >8000 ms, max >8000 ms");
  }

  @Test
  void theSummaryListsTheScaleFaultsChangesAndItsKill() {
    Op scale =
        Op.of(Kind.FAULT, Outcome.OK, null)
            .withTimes(1_000, 20_000)
            .withVars(
                java.util.Map.of(
                    ScaleFault.UP_CHANGE, "1",
                    ScaleFault.UP_MS, "9500",
                    ScaleFault.UP_STATUS, "COMPLETED",
                    ScaleFault.KILLED, "3",
                    ScaleFault.PENDING_AT_KILL, "5",
                    ScaleFault.DOWN_CHANGE, "2",
                    ScaleFault.DOWN_MS, "2000",
                    ScaleFault.DOWN_STATUS, "COMPLETED"));

    assertThat(ChaosReport.changes(List.of(FAULT, scale)))
        .contains("| 1 | all brokers | 9500 | COMPLETED | broker 3, 5 steps still to do after it |")
        .contains("| 2 | the first brokers again | 2000 | COMPLETED | - |");
    assertThat(ChaosReport.changes(List.of(FAULT))).isEmpty();
  }
}
