package io.tern.benchmark.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.benchmark.common.CapturedOutput;
import io.tern.benchmark.common.CommandLines;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class EngineOptionsTest {
  @Test
  void defaults() {
    EngineOptions options = EngineOptions.parse(new String[0]);

    assertThat(options.dataParentDir()).isEqualTo(Path.of("target"));
    assertThat(options.jsonOut().getFileName()).hasToString("engine-benchmark.json");
    assertThat(options.instances()).isEqualTo(20_000);
    assertThat(options.window()).isEqualTo(500);
    assertThat(options.tasks()).containsExactly(1, 10);
    assertThat(options.batching()).containsExactly(true, false);
  }

  @Test
  void quickRunsFewerInstancesUnlessTheyAreGiven() {
    assertThat(EngineOptions.parse(new String[] {"--quick"}).instances()).isEqualTo(2000);
    EngineOptions explicit =
        EngineOptions.parse(
            new String[] {"--quick", "--instances", "300", "--tasks", "5", "--batching", "off"});
    assertThat(explicit.instances()).isEqualTo(300);
    assertThat(explicit.tasks()).containsExactly(5);
    assertThat(explicit.batching()).containsExactly(false);
  }

  @Test
  void badValuesAreRefusedNamingTheOption() {
    assertThatThrownBy(() -> EngineOptions.parse(new String[] {"--window", "0"}))
        .isInstanceOf(CommandLines.UsageException.class)
        .hasMessageContaining("--window must be positive, got 0")
        .hasMessageContaining("Usage: java -jar tern-benchmark.jar engine");
    assertThatThrownBy(() -> EngineOptions.parse(new String[] {"--tasks", "1,0"}))
        .hasMessageContaining("--tasks must be positive, got 0");
    assertThatThrownBy(() -> EngineOptions.parse(new String[] {"--batching", "on,maybe"}))
        .hasMessageContaining("--batching: unknown value 'maybe', known: on,off");
    assertThatThrownBy(() -> EngineOptions.parse(new String[] {"--instances", "many"}))
        .hasMessageContaining("--instances")
        .hasMessageContaining("many");
  }

  @Test
  void helpIsPrintedAndNothingRuns() throws Exception {
    CapturedOutput<EngineOptions> help =
        CapturedOutput.of(() -> EngineOptions.parse(new String[] {"--help"}));

    assertThat(help.result()).isNull();
    assertThat(help.out())
        .contains("Usage: java -jar tern-benchmark.jar engine")
        .contains("--batching");
  }
}
