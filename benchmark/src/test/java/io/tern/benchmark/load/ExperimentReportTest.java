package io.tern.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.benchmark.load.ExperimentResults.Result;
import io.tern.benchmark.load.ExperimentResults.Window;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentReportTest {
  @TempDir Path dir;

  @Test
  void theBreakdownAddsUpToTheMeanAndTheFloorIsCommitsTimesCommitLatency() {
    // 10 commits of 4 ms and 30 commands of 0.5 ms each: 40 + 15 of a 70 ms mean, 15 left over.
    Result result = result("baseline", window(100, 70), window(90, 70), window(120, 70));

    assertThat(result.median(Window::pelP50)).isEqualTo(100);
    assertThat(result.min(Window::pelP50)).isEqualTo(90);
    assertThat(result.max(Window::pelP50)).isEqualTo(120);
    assertThat(result.commitShare()).isEqualTo(40.0);
    assertThat(result.processingShare()).isEqualTo(15.0);
    assertThat(result.overhead()).isEqualTo(15.0);
    // The typical process with the defaults: 24 commit-gated steps of 2.5 ms, 11 round trips (10
    // jobs, the create) of 65 ms (the probe's 70 less its own 2 commits), 12 ms of processing.
    assertThat(result.steps().count()).isEqualTo(24);
    assertThat(result.roundTripMs()).isEqualTo(65);
    assertThat(result.floor()).isEqualTo(24 * 2.5 + 11 * 65 + 12);
    assertThat(result.pelOverFloor()).isEqualTo(100 / (24 * 2.5 + 11 * 65 + 12));
    // The p50's bucket is 2-3 ms: the floor lies between these. The round trip subtracts the
    // interpolated commits either way.
    assertThat(result.floorRange()).containsExactly(24 * 2 + 11 * 65 + 12, 24 * 3 + 11 * 65 + 12);
    assertThat(result.pelP50ByPartition()).containsEntry(1, 50.0).containsEntry(2, 200.0);
  }

  @Test
  void safeCombinedIsJudgedAgainstTheBaselineOfTheSameWorkload() {
    List<Result> passing =
        List.of(result("baseline", window(300, 300)), result("safe-combined", window(90, 90)));
    List<Result> failing =
        List.of(result("baseline", window(300, 300)), result("safe-combined", window(200, 200)));

    assertThat(ExperimentReport.verdicts(passing).get(0))
        .startsWith("PASS: typical: safe-combined PEL p50 90.0 against baseline 300, 3.33x lower");
    assertThat(ExperimentReport.verdicts(failing).get(0)).startsWith("FAIL: typical");
  }

  @Test
  void uncommittedProcessingIsJudgedAgainstTheBaselineAndEveryResultAgainstItsFloor() {
    // Probes of 3.5 ms here, less the flag's 1 commit: round trips of 1 ms. The typical process
    // with the flag (timers uncommitted): 11 steps of 2.5 ms, 11 round trips of 1 ms, 12 ms
    // processing: a floor of 50.5 ms, its target 58.1.
    Result fast = result("uncommitted", Map.of("processing.uncommitted", "true"), window(55, 55));
    assertThat(fast.steps().count()).isEqualTo(11);
    assertThat(fast.floor()).isEqualTo(11 * 2.5 + 11 + 12);
    List<String> verdicts =
        ExperimentReport.verdicts(List.of(result("baseline", Map.of(), window(300, 300)), fast));
    assertThat(verdicts)
        .anySatisfy(
            v -> assertThat(v).startsWith("PASS: typical: uncommitted (with batch processing)"))
        .anySatisfy(
            v ->
                assertThat(v)
                    .startsWith(
                        "PASS: typical: uncommitted PEL p50 55.0 is 1.09x its floor 50.5 (11"
                            + " steps"));

    Result tooFast =
        result("uncommitted", Map.of("processing.uncommitted", "true"), window(40, 40));
    assertThat(ExperimentReport.verdicts(List.of(tooFast)))
        .anySatisfy(v -> assertThat(v).startsWith("FLOOR ABOVE PEL: typical: uncommitted PEL p50"));

    Result slow = result("uncommitted", Map.of("processing.uncommitted", "true"), window(60, 60));
    assertThat(
            ExperimentReport.verdicts(
                List.of(result("baseline", Map.of(), window(100, 100)), slow)))
        .anySatisfy(v -> assertThat(v).startsWith("FAIL: typical: uncommitted (with batch"))
        .anySatisfy(v -> assertThat(v).startsWith("FAIL: typical: uncommitted PEL p50 60.0 is"));
  }

  @Test
  void theStepsFollowTheProcessAndTheFlags() {
    // Without the flag each step is a command's commit and its result's: 2 + 2 x jobs + 2 x timers.
    assertThat(FloorModel.steps(Workloads.TYPICAL, Map.of(), 24.3).count()).isEqualTo(24);
    assertThat(FloorModel.steps(Workloads.ONE_TASK, Map.of(), 4.0).count()).isEqualTo(4);
    // With it only what leaves the partition waits: the jobs, the answer, a commit-gated timer.
    Map<String, String> uncommitted = Map.of("processing.uncommitted", "true");
    assertThat(FloorModel.steps(Workloads.TYPICAL, uncommitted, 24.3).count()).isEqualTo(11);
    assertThat(
            FloorModel.steps(
                    Workloads.TYPICAL,
                    Map.of(
                        "processing.uncommitted", "true", "processing.uncommittedTimers", "false"),
                    24.3)
                .count())
        .isEqualTo(12);
    assertThat(FloorModel.steps(Workloads.ONE_TASK, uncommitted, 4.0).count()).isEqualTo(2);
    // One command per batch without the flag: every committed entry is a step of its own.
    Map<String, String> seed = ExperimentMatrix.defaults().get(0).keys();
    assertThat(FloorModel.steps(Workloads.TYPICAL, seed, 56.7).count()).isEqualTo(56.7);
  }

  @Test
  void roundsMergeTheirWindowsPerWorkloadAndConfiguration() {
    List<Result> merged =
        ExperimentResults.mergeRounds(
            List.of(
                result("seed-baseline", window(900, 900)),
                result("baseline", window(300, 300)),
                result("seed-baseline", window(1000, 1000)),
                result("baseline", window(320, 320)),
                result("seed-baseline", window(950, 950)),
                result("baseline", window(900, 900))));

    assertThat(merged)
        .extracting(Result::configuration)
        .containsExactly("seed-baseline", "baseline");
    assertThat(merged.get(0).median(Window::pelP50)).isEqualTo(950);
    assertThat(merged.get(1).median(Window::pelP50)).isEqualTo(320);
  }

  @Test
  void safeCombinedIsJudgedAgainstSeedBaseline() {
    List<String> verdicts =
        ExperimentReport.verdicts(
            List.of(
                result("seed-baseline", window(4000, 4000)),
                result("baseline", window(2000, 2000)),
                result("safe-combined", window(900, 900))));
    assertThat(verdicts)
        .anySatisfy(
            v ->
                assertThat(v)
                    .startsWith(
                        "PASS: typical: safe-combined PEL p50 900 against seed-baseline 4,000,"
                            + " 4.44x lower (target: at least 4x)"))
        .anySatisfy(
            v ->
                assertThat(v)
                    .startsWith(
                        "PASS: typical: safe-combined PEL p50 900 against baseline 2,000, 2.22x"));
  }

  @Test
  void theMedianInsideABucketIsInterpolated() {
    // 10 below 71.6 ms, 10 between 71.6 and 89.5: the median is the 71.6 bound, not 89.5.
    MetricsWindow.Histogram commits =
        new MetricsWindow.Histogram(
            new java.util.TreeMap<>(
                Map.of(0.071582788, 10.0, 0.089478485, 20.0, Double.POSITIVE_INFINITY, 20.0)),
            1.5,
            20);
    assertThat(commits.quantileMs(0.5)).isCloseTo(71.58, org.assertj.core.data.Offset.offset(0.01));
    assertThat(commits.quantileMs(0.75))
        .isCloseTo(89.48, org.assertj.core.data.Offset.offset(0.01));
    assertThat(commits.quantileLowerBoundMs(0.75))
        .isCloseTo(71.58, org.assertj.core.data.Offset.offset(0.01));
    assertThat(commits.quantileMsInterpolated(0.75))
        .isCloseTo(80.53, org.assertj.core.data.Offset.offset(0.01));
  }

  @Test
  void writesThePageTheJsonAndAChartPerWorkload() throws Exception {
    List<Result> results =
        List.of(result("baseline", window(300, 300)), result("safe-combined", window(90, 90)));

    String page = ExperimentReport.write(dir, Map.of("brokers", 3), results);

    assertThat(page)
        .contains("- brokers: 3")
        .contains("## typical")
        .contains("| baseline | 300 (300-300) |")
        .contains("- safe-combined: {raft.flush.mode=delayed}, 5.0 creates/s")
        .contains("PEL p50 by partition, ms: {1=45.0, 2=180}");
    assertThat(Files.readString(dir.resolve("report.md"))).isEqualTo(page);
    assertThat(Files.readString(dir.resolve("report.json")))
        .contains("\"configuration\": \"safe-combined\"")
        .contains("\"floorMs\"");
    byte[] png = Files.readAllBytes(dir.resolve("experiment-typical.png"));
    assertThat(png).startsWith(0x89, 'P', 'N', 'G');
  }

  @Test
  void theMatrixFileKeepsItsOrderAndNamesWhatIsWrong() throws Exception {
    Path file = dir.resolve("matrix.yaml");
    Files.writeString(
        file,
        """
        baseline: {}
        flush-off:
          raft.flush.mode: "off"
        tmpfs:
          data.runtimeDirectory: /dev/shm/x-{run}/broker-{node}
        """);

    List<ExperimentMatrix.Configuration> matrix = ExperimentMatrix.load(file);

    assertThat(matrix)
        .extracting(ExperimentMatrix.Configuration::name)
        .containsExactly("baseline", "flush-off", "tmpfs");
    assertThat(matrix.get(1).keys()).containsEntry("raft.flush.mode", "off");
    assertThat(ExperimentMatrix.environment(matrix.get(2).keys(), "r1"))
        .containsExactly(Map.entry("TERN_DATA_RUNTIMEDIRECTORY", "/dev/shm/x-r1/broker-{node}"));

    Files.writeString(file, "flush-off: async\n");
    assertThatThrownBy(() -> ExperimentMatrix.load(file))
        .hasMessageContaining("'flush-off' must map broker keys to values");
  }

  @Test
  void theDefaultMatrixSwitchesOneFlagAtATimeThenCombines() {
    List<ExperimentMatrix.Configuration> matrix = ExperimentMatrix.defaults();
    // First Zeebe before the seed's hackday: one command per batch, the WAL on, a flush per append.
    assertThat(matrix.get(0).name()).isEqualTo(ExperimentMatrix.SEED_BASELINE);
    assertThat(matrix.get(0).keys())
        .containsExactly(
            Map.entry("processing.maxCommandsInBatch", "1"),
            Map.entry("state.rocksdb.disableWal", "false"),
            Map.entry("raft.flush.mode", "sync"));
    assertThat(matrix.get(1).name()).isEqualTo(ExperimentMatrix.BASELINE);
    assertThat(matrix.get(1).keys()).isEmpty();
    // One key at a time, but for the flag with timers gated by the commit (its own key, too).
    assertThat(matrix.subList(2, matrix.size() - 2))
        .filteredOn(c -> !c.name().equals(ExperimentMatrix.UNCOMMITTED_GATED_TIMERS))
        .allSatisfy(configuration -> assertThat(configuration.keys()).hasSize(1));
    assertThat(matrix)
        .filteredOn(c -> c.name().equals(ExperimentMatrix.UNCOMMITTED_GATED_TIMERS))
        .singleElement()
        .satisfies(
            c -> assertThat(c.keys()).containsEntry("processing.uncommittedTimers", "false"));
    assertThat(matrix)
        .extracting(ExperimentMatrix.Configuration::name)
        .endsWith(ExperimentMatrix.SAFE_COMBINED, ExperimentMatrix.ALL_COMBINED);
    // Safe means nothing acknowledged can be lost: never the flush turned off.
    assertThat(matrix.get(matrix.size() - 2).keys()).doesNotContainEntry("raft.flush.mode", "off");
  }

  @Test
  void layoutsPlaceTheDelayAndTheClient() {
    ExperimentOptions all =
        ExperimentOptions.parse(new String[] {"--layout", "all", "--partitions", "1"});
    assertThat(all.latencyBetween).isEqualTo("all");
    assertThat(all.client).isEqualTo(ExperimentOptions.CLIENT_LEADER); // node 0 leads partition 1
    assertThat(all.describeClient()).contains("node 0, every partition's leader");

    // Three partitions are led from three nodes: no embedded gateway is every leader's.
    ExperimentOptions three = ExperimentOptions.parse(new String[] {"--layout", "all"});
    assertThat(three.client).isEqualTo(ExperimentOptions.CLIENT_STANDALONE);
    assertThatThrownBy(
            () -> ExperimentOptions.parse(new String[] {"--layout", "all", "--client", "leader"}))
        .hasMessageContaining("--client leader");

    ExperimentOptions twoRegion = ExperimentOptions.parse(new String[] {"--layout", "two-region"});
    assertThat(twoRegion.latencyBetween).isEqualTo("0-2,1-2");
    assertThat(twoRegion.partitions).isEqualTo(2); // primaries on nodes 0 and 1, the near ones
    assertThat(twoRegion.describeLatency()).contains("node 2 (the far region)");
    assertThatThrownBy(
            () ->
                ExperimentOptions.parse(
                    new String[] {"--layout", "two-region", "--partitions", "3"}))
        .hasMessageContaining("partition 3's primary is node 2, the far one");

    ExperimentOptions old = ExperimentOptions.parse(new String[] {"--client", "node-0"});
    assertThat(old.latencyBetween).isEqualTo("0-1");
    assertThat(old.describeClient()).isEqualTo("the client on node 0's embedded gateway");
  }

  @Test
  void leaderBalanceCountsLeadersPerNodeAndNamesThoseOffTheirPrimary() {
    assertThat(ExperimentBenchmark.leaderBalance(Map.of(1, 0, 2, 1, 3, 2), 3))
        .isEqualTo("node 0: 1, node 1: 1, node 2: 1; all on their primaries");
    assertThat(ExperimentBenchmark.leaderBalance(Map.of(1, 0, 2, 0, 3, 2), 3))
        .isEqualTo(
            "node 0: 2, node 1: 0, node 2: 1; off their primaries: [partition 2 on node 0,"
                + " primary 1]");
  }

  @Test
  void optionsQuickNarrowsTheRunAndBadOptionsAreNamed() {
    ExperimentOptions quick = ExperimentOptions.parse(new String[] {"--quick"});
    assertThat(quick.configs).containsExactly("baseline", "safe-combined", "all-combined");
    assertThat(quick.workloads).containsExactly(Workloads.TYPICAL);
    assertThat(quick.repeat).isEqualTo(1);

    assertThatThrownBy(() -> ExperimentOptions.parse(new String[] {"--workloads", "huge"}))
        .hasMessageContaining("no workload named huge");
    assertThatThrownBy(
            () -> ExperimentOptions.parse(new String[] {"--management", "127.0.0.1:9600"}))
        .hasMessageContaining("--management goes with --gateway");
    assertThatThrownBy(() -> ExperimentOptions.parse(new String[] {"--repeat", "x"}))
        .hasMessageContaining("--repeat");
  }

  private static Result result(String configuration, Window... windows) {
    Map<String, String> keys =
        configuration.equals("baseline") ? Map.of() : Map.of("raft.flush.mode", "delayed");
    return new Result("typical", configuration, keys, 5, List.of(windows), Map.of(1, 70L));
  }

  private static Result result(String configuration, Map<String, String> keys, Window... windows) {
    return new Result("typical", configuration, keys, 5, List.of(windows), Map.of(1, 3L, 2, 4L));
  }

  /**
   * A window with 10 commits (3 ms p50, 2.5 ms interpolated, 4 ms mean) and 30 commands (0.5 ms
   * mean, 12 ms of processing) per instance.
   */
  private static Window window(double pelP50, double pelMean) {
    return new Window(
        100,
        20,
        0,
        0,
        pelP50,
        pelP50 * 1.2,
        pelP50 * 1.5,
        pelMean,
        3,
        9,
        4,
        0.4,
        2,
        0.5,
        1,
        5,
        10,
        30,
        Map.of(1, pelP50 / 2, 2, pelP50 * 2),
        2.5,
        12,
        2);
  }
}
