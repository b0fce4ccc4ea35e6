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
}
