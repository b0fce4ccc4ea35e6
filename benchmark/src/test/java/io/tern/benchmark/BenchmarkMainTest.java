package io.tern.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.benchmark.common.CapturedOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BenchmarkMainTest {
  @Test
  void helpListsEveryBenchmark() throws Exception {
    CapturedOutput<Integer> help =
        CapturedOutput.of(() -> BenchmarkMain.run(new String[] {"--help"}));

    assertThat(help.result()).isZero();
    assertThat(help.out()).contains("Usage: java -jar tern-benchmark.jar");
    for (BenchmarkMain.Benchmark benchmark : BenchmarkMain.BENCHMARKS) {
      assertThat(help.out()).contains(benchmark.name()).contains(benchmark.measures());
    }
  }

  @Test
  void withoutABenchmarkTheUsageGoesToStandardError() throws Exception {
    CapturedOutput<Integer> none = CapturedOutput.of(() -> BenchmarkMain.run(new String[0]));

    assertThat(none.result()).isEqualTo(2);
    assertThat(none.err()).contains("Benchmarks:").contains("journal");
  }

  @Test
  void anUnknownBenchmarkIsRefusedByName() throws Exception {
    CapturedOutput<Integer> unknown =
        CapturedOutput.of(() -> BenchmarkMain.run(new String[] {"nonsense", "--quick"}));

    assertThat(unknown.result()).isEqualTo(2);
    assertThat(unknown.err()).contains("Unknown benchmark: nonsense").contains("Benchmarks:");
  }

  @Test
  void theRestOfTheCommandLineGoesToTheBenchmark() throws Exception {
    CapturedOutput<Integer> help =
        CapturedOutput.of(() -> BenchmarkMain.run(new String[] {"journal", "--help"}));

    assertThat(help.result()).isZero();
    assertThat(help.out())
        .contains("Usage: java -jar tern-benchmark.jar journal")
        .contains("--quick");
  }

  @Test
  void aBenchmarksWrongOptionEndsTheRunWithItsUsage() throws Exception {
    CapturedOutput<Integer> wrong =
        CapturedOutput.of(() -> BenchmarkMain.run(new String[] {"journal", "--nonsense"}));

    assertThat(wrong.result()).isEqualTo(2);
    assertThat(wrong.err())
        .contains("Unknown option: '--nonsense'")
        .contains("Usage: java -jar tern-benchmark.jar journal");
  }

  /**
   * A value a benchmark checks itself, after picocli has read it (a name looked up in a list, a
   * file read), is refused like one picocli refuses: the message first, naming the option, exit 2,
   * no stack trace.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "experiment --configs no-such | --configs: no configuration named no-such",
        "experiment --matrix /no/such/matrix.yaml | --matrix: cannot read /no/such/matrix.yaml",
        "experiment --workloads no-such | --workloads: no workload named no-such",
        "soak --dir target/unused --workload no-such | --workload: no workload named 'no-such'",
        "starter --gateway 127.0.0.1:1 --workload no-such | --workload: no workload named 'no-such'",
        "worker --gateway 127.0.0.1:1 --workload no-such | --workload: no workload named 'no-such'",
        "soak --dir target/unused --bpmn /no/such.bpmn | --bpmn/--payload: cannot read",
        "chaos --dir target/unused --faults no-such | --faults",
        "raft --modes no-such | --modes",
        "journal --flush no-such | --flush",
      })
  void aValueTheBenchmarkChecksItselfIsRefusedInOneLineWithExitCodeTwo(
      String commandLine, String message) throws Exception {
    CapturedOutput<Integer> wrong =
        CapturedOutput.of(() -> BenchmarkMain.run(commandLine.split(" ")));

    assertThat(wrong.result()).as("exit code; stderr:%n%s", wrong.err()).isEqualTo(2);
    assertThat(wrong.err().lines().findFirst().orElse(""))
        .as("the first line of stderr:%n%s", wrong.err())
        .contains(message);
    assertThat(wrong.err()).doesNotContain("\tat ").doesNotContain("Exception");
  }

  @Test
  void namesAreUnique() {
    assertThat(BenchmarkMain.BENCHMARKS.stream().map(BenchmarkMain.Benchmark::name))
        .doesNotHaveDuplicates();
  }
}
