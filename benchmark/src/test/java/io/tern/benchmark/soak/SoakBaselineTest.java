package io.tern.benchmark.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * This run against last week's, interval by interval: regressions beyond noise fail, noise does
 * not.
 */
class SoakBaselineTest {
  @Test
  void theSameRunWithOtherNoiseIsNoRegression() {
    Random thisWeek = new Random(1);
    Random lastWeek = new Random(2);
    SoakSeries now =
        SoakVerdictsTest.run(
            1, (i, s) -> s.put(Signals.PEL_P99, 80 + 10 * thisWeek.nextGaussian()));
    SoakSeries then =
        SoakVerdictsTest.run(
            2, (i, s) -> s.put(Signals.PEL_P99, 80 + 10 * lastWeek.nextGaussian()));

    Verdict baseline = Baseline.compare(now, then, 0.1);
    assertThat(baseline.passed()).as(baseline.line()).isTrue();
    assertThat(baseline.evidence())
        .anySatisfy(line -> assertThat(line).startsWith("PEL p99: median"));
  }

  @Test
  void aSlowerP99AllAlongIsARegression() {
    Random random = new Random(3);
    SoakSeries now =
        SoakVerdictsTest.run(1, (i, s) -> s.put(Signals.PEL_P99, 120 + 10 * random.nextGaussian()));
    SoakSeries then =
        SoakVerdictsTest.run(2, (i, s) -> s.put(Signals.PEL_P99, 80 + 10 * random.nextGaussian()));

    Verdict baseline = Baseline.compare(now, then, 0.1);
    assertThat(baseline.passed()).isFalse();
    assertThat(baseline.summary())
        .startsWith("regressed: PEL p99: median 120 against 80")
        .contains("(+49%)");
  }

  @Test
  void oneBadStretchIsNotARegression() {
    // Worse by far, but in a tenth of the intervals only.
    SoakSeries now =
        SoakVerdictsTest.run(1, (i, s) -> s.put(Signals.PEL_P99, i < 72 ? 500.0 : 80.0));
    SoakSeries then = SoakVerdictsTest.run(2, (i, s) -> {});

    assertThat(Baseline.compare(now, then, 0.1).passed()).isTrue();
  }

  @Test
  void fewerCompletionsIsARegression() {
    SoakSeries now = SoakVerdictsTest.run(1, (i, s) -> s.put(Signals.COMPLETED, 80.0));
    SoakSeries then = SoakVerdictsTest.run(2, (i, s) -> {});

    assertThat(Baseline.compare(now, then, 0.1).summary())
        .startsWith("regressed: completed/s: median 80 against 100 (-20%)");
  }
}
