package io.tern.benchmark.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.benchmark.common.CapturedOutput;
import io.tern.benchmark.common.CommandLines;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class JournalBenchmarkOptionsTest {
  @Test
  void defaultsAreTheFullRun() {
    JournalBenchmarkOptions options = JournalBenchmarkOptions.parse(new String[0]);

    assertThat(options.dataParentDir()).isEqualTo(Path.of("target"));
    assertThat(options.jsonOut().getFileName()).hasToString("journal-benchmark.json");
    assertThat(options.quick()).isFalse();
    assertThat(options.segmentSizeBytes()).isEqualTo(128 * JournalBenchmarkOptions.MIB);
    assertThat(options.openJournalBytes()).isEqualTo(2 * JournalBenchmarkOptions.GIB);
    assertThat(options.appendRounds()).isEqualTo(5);
  }

  @Test
  void quickShrinksTheWorkloadsAndTheOtherOptionsAreTaken() {
    JournalBenchmarkOptions options =
        JournalBenchmarkOptions.parse(
            new String[] {"--quick", "--dir", "/tmp/scratch", "--out=results.json"});

    assertThat(options.quick()).isTrue();
    assertThat(options.segmentSizeBytes()).isEqualTo(32 * JournalBenchmarkOptions.MIB);
    assertThat(options.openJournalBytes()).isEqualTo(256 * JournalBenchmarkOptions.MIB);
    assertThat(options.dataParentDir()).isEqualTo(Path.of("/tmp/scratch"));
    assertThat(options.jsonOut()).isEqualTo(Path.of("results.json"));
  }

  @Test
  void wrongOptionsAreRefusedByNameWithTheUsage() {
    assertThatThrownBy(() -> JournalBenchmarkOptions.parse(new String[] {"--seconds", "5"}))
        .isInstanceOf(CommandLines.UsageException.class)
        .hasMessageContaining("--seconds")
        .hasMessageContaining("Usage: java -jar tern-benchmark.jar journal");
    assertThatThrownBy(() -> JournalBenchmarkOptions.parse(new String[] {"--dir"}))
        .isInstanceOf(CommandLines.UsageException.class)
        .hasMessageContaining("--dir");
  }

  @Test
  void helpIsPrintedAndNothingRuns() throws Exception {
    CapturedOutput<JournalBenchmarkOptions> help =
        CapturedOutput.of(() -> JournalBenchmarkOptions.parse(new String[] {"--help"}));

    assertThat(help.result()).isNull();
    assertThat(help.out())
        .contains("Usage: java -jar tern-benchmark.jar journal")
        .contains("--quick")
        .contains("--dir")
        .contains("journal-benchmark.json");
  }
}
