package io.tern.benchmark.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScalingOptionsTest {
  @Test
  void quickShortensWhatIsNotGivenAndAGivenValueWins() {
    ScalingOptions.Settings full = ScalingOptions.parse(new String[0]);
    assertThat(full.targets()).containsExactly("t1", "t2", "t3");
    assertThat(full.stateBytes()).isEqualTo(1024 * 1_000_000L);
    assertThat(full.steady()).isEqualTo(Duration.ofSeconds(20));

    ScalingOptions.Settings quick =
        ScalingOptions.parse(
            new String[] {"--quick", "--targets", "T2", "--state-mb", "8", "--set", "a.b=c"});
    assertThat(quick.targets()).containsExactly("t2");
    assertThat(quick.stateBytes()).as("given, not quick's 64").isEqualTo(8_000_000L);
    assertThat(quick.steady()).isEqualTo(Duration.ofSeconds(5));
    assertThat(quick.t3Rate()).isEqualTo(30);
    assertThat(quick.environment()).isEqualTo(Map.of("TERN_A_B", "c"));
  }

  @Test
  void wrongValuesAreRefusedNamingTheOption() {
    assertThatThrownBy(() -> ScalingOptions.parse(new String[] {"--targets", "t4"}))
        .hasMessageContaining("--targets: unknown value 't4'");
    assertThatThrownBy(() -> ScalingOptions.parse(new String[] {"--rounds", "0"}))
        .hasMessageContaining("--rounds must be positive");
    assertThatThrownBy(() -> ScalingOptions.parse(new String[] {"--variable-kb", "4096"}))
        .hasMessageContaining("--variable-kb must be at most 3072");
  }

  @Test
  void secondsAreSortedIntoSteadyMoveAndAfterByTheirWholeSecond() {
    long s = 1_000_000_000L;
    // steady from 10 s to 13.5 s, the move until 15.2 s, measured until 18 s.
    long[] marks = {10 * s, 13 * s + s / 2, 15 * s + s / 5, 18 * s};
    List<PerSecond.Second> seconds =
        List.of(
            new PerSecond.Second(10 * s, 5, 0, 0), // warmup
            new PerSecond.Second(11 * s, 100, 0, 0),
            new PerSecond.Second(12 * s, 110, 0, 0),
            new PerSecond.Second(13 * s, 90, 0, 0),
            new PerSecond.Second(14 * s, 80, 0, 0), // straddles the move's start: the move's
            new PerSecond.Second(15 * s, 40, 0, 0),
            new PerSecond.Second(16 * s, 70, 0, 0), // straddles its end: the move's
            new PerSecond.Second(17 * s, 120, 0, 0),
            new PerSecond.Second(18 * s, 100, 0, 0));
    ClusterApi.ChangeRun change =
        new ClusterApi.ChangeRun(
            1,
            List.of("PARTITION_JOIN 3 2"),
            13 * s + s / 2,
            13 * s + s / 2,
            List.of(15 * s),
            15 * s + s / 5,
            "COMPLETED");

    Map<String, Object> figures =
        MoveUnderLoad.figures(seconds, marks, change, Map.of("ABORTED", 2L), 3, 0);

    assertThat(figures.get("steadySeconds")).isEqualTo(List.of(100.0, 110.0, 90.0));
    assertThat(figures.get("moveSeconds")).isEqualTo(List.of(80.0, 40.0, 70.0));
    assertThat(figures.get("afterSeconds")).isEqualTo(List.of(120.0, 100.0));
    assertThat(figures.get("steadyMedianPiPerSecond")).isEqualTo(100.0);
    assertThat(figures.get("moveMinPiPerSecond")).isEqualTo(40.0);
    assertThat(figures.get("minRatio")).isEqualTo(0.4);
    assertThat(figures.get("failedCreatesSinceMoveByStatus"))
        .as("refusals are RESOURCE_EXHAUSTED failures too")
        .isEqualTo(Map.of("ABORTED", 2L, "RESOURCE_EXHAUSTED", 3L));
    assertThat(figures.get("failedCreatesNotRetryable")).isEqualTo(2L);
  }
}
