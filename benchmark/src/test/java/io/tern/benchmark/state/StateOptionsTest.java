package io.tern.benchmark.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.benchmark.common.CapturedOutput;
import io.tern.benchmark.common.CommandLines;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class StateOptionsTest {
  @Test
  void defaults() {
    StateOptions options = StateOptions.parse(new String[0]);

    assertThat(options.dataParentDir()).isEqualTo(Path.of("target"));
    assertThat(options.jsonOut().getFileName()).hasToString("state-benchmark.json");
    assertThat(options.workflows()).isEqualTo(1000);
    assertThat(options.tasks()).isEqualTo(1000);
    assertThat(options.payloadBytes()).isEqualTo(1024);
    assertThat(options.scanIntervalMs()).isEqualTo(100);
    assertThat(options.timeoutMs()).isEqualTo(1000);
    assertThat(options.configs()).containsExactly("tuned", "defaults");
  }

  @Test
  void quickRunsAHundredByAHundredUnlessTheSizesAreGiven() {
    StateOptions quick = StateOptions.parse(new String[] {"--quick"});
    assertThat(quick.workflows()).isEqualTo(100);
    assertThat(quick.tasks()).isEqualTo(100);

    StateOptions explicit =
        StateOptions.parse(new String[] {"--quick", "--workflows", "7", "--configs", "defaults"});
    assertThat(explicit.workflows()).isEqualTo(7);
    assertThat(explicit.tasks()).isEqualTo(100);
    assertThat(explicit.configs()).containsExactly("defaults");
  }

  @Test
  void badValuesAreRefusedNamingTheOption() {
    assertThatThrownBy(() -> StateOptions.parse(new String[] {"--workflows", "0"}))
        .isInstanceOf(CommandLines.UsageException.class)
        .hasMessageContaining("--workflows must be positive, got 0")
        .hasMessageContaining("Usage: java -jar tern-benchmark.jar state");
    assertThatThrownBy(() -> StateOptions.parse(new String[] {"--payload-bytes", "4"}))
        .hasMessageContaining("--payload-bytes must be at least 8, got 4");
    assertThatThrownBy(() -> StateOptions.parse(new String[] {"--configs", "tuned,fast"}))
        .hasMessageContaining("--configs: unknown value 'fast', known: tuned,defaults");
    assertThatThrownBy(() -> StateOptions.parse(new String[] {"--timeout-ms", "soon"}))
        .hasMessageContaining("--timeout-ms")
        .hasMessageContaining("soon");
  }

  @Test
  void helpIsPrintedAndNothingRuns() throws Exception {
    CapturedOutput<StateOptions> help =
        CapturedOutput.of(() -> StateOptions.parse(new String[] {"--help"}));

    assertThat(help.result()).isNull();
    assertThat(help.out())
        .contains("Usage: java -jar tern-benchmark.jar state")
        .contains("--configs");
  }
}
