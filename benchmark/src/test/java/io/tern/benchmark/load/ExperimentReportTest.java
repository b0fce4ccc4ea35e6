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
    assertThat(result.floor()).isEqualTo(10 * 3.0);
    assertThat(result.pelP50ByPartition()).containsEntry(1, 50.0).containsEntry(2, 200.0);
  }

  @Test
  void safeCombinedIsJudgedAgainstTheBaselineOfTheSameWorkload() {
    List<Result> passing =
        List.of(result("baseline", window(300, 300)), result("safe-combined", window(90, 90)));
    List<Result> failing =
        List.of(result("baseline", window(300, 300)), result("safe-combined", window(150, 150)));

    assertThat(ExperimentReport.verdicts(passing).get(0))
        .startsWith("PASS: typical: safe-combined PEL p50 90.0 against baseline 300, 3.33x lower");
    assertThat(ExperimentReport.verdicts(failing).get(0)).startsWith("FAIL: typical");
  }

  @Test
  void uncommittedProcessingIsJudgedAgainstTheBaselineAndItsFloor() {
    // In window(): commit p50 3 ms, 30 commands an instance, processing p50 0.4 ms; so the ideal
    // is 3 + 30 x 0.4 = 15 ms, and the floor's target 30 ms.
    List<String> verdicts =
        ExperimentReport.verdicts(
            List.of(result("baseline", window(300, 300)), result("uncommitted", window(12, 12))));
    assertThat(verdicts)
        .anySatisfy(
            v -> assertThat(v).startsWith("PASS: typical: uncommitted (with batch processing)"))
        .anySatisfy(v -> assertThat(v).startsWith("PASS: typical: uncommitted PEL p50 12.0 is"));

    List<String> slow =
        ExperimentReport.verdicts(
            List.of(result("baseline", window(300, 300)), result("uncommitted", window(200, 200))));
    assertThat(slow)
        .anySatisfy(v -> assertThat(v).startsWith("FAIL: typical: uncommitted (with batch"))
        .anySatisfy(v -> assertThat(v).startsWith("FAIL: typical: uncommitted PEL p50 200 is"));
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
    assertThat(matrix.get(0).keys()).isEmpty();
    assertThat(matrix.subList(1, matrix.size() - 2))
        .allSatisfy(configuration -> assertThat(configuration.keys()).hasSize(1));
    assertThat(matrix)
        .extracting(ExperimentMatrix.Configuration::name)
        .endsWith(ExperimentMatrix.SAFE_COMBINED, ExperimentMatrix.ALL_COMBINED);
    // Safe means nothing acknowledged can be lost: never the flush turned off.
    assertThat(matrix.get(matrix.size() - 2).keys()).doesNotContainEntry("raft.flush.mode", "off");
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

  /** A window with 10 commits (3 ms p50, 4 ms mean) and 30 commands (0.5 ms mean) per instance. */
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
        Map.of(1, pelP50 / 2, 2, pelP50 * 2));
  }
}
