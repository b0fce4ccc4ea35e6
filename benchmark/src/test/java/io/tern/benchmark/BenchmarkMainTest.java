package io.tern.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.benchmark.common.CapturedOutput;
import org.junit.jupiter.api.Test;

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

  @Test
  void namesAreUnique() {
    assertThat(BenchmarkMain.BENCHMARKS.stream().map(BenchmarkMain.Benchmark::name))
        .doesNotHaveDuplicates();
  }
}
