package io.tern.benchmark.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.benchmark.common.ByteSizes;
import io.tern.benchmark.common.CapturedOutput;
import io.tern.benchmark.common.CommandLines;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ReplayOptionsTest {
  @Test
  void defaults() {
    ReplayOptions options = ReplayOptions.parse(new String[0]);

    assertThat(options.dataParentDir()).isEqualTo(Path.of("target"));
    assertThat(options.jsonOut().getFileName()).hasToString("replay-benchmark.json");
    assertThat(options.logBytes()).isEqualTo(ByteSizes.GIB);
    assertThat(options.valueBytes()).isEqualTo(1024);
  }

  @Test
  void quickReplaysASmallLogUnlessTheSizeIsGiven() {
    assertThat(ReplayOptions.parse(new String[] {"--quick"}).logBytes())
        .isEqualTo(64 * ByteSizes.MIB);
    assertThat(ReplayOptions.parse(new String[] {"--quick", "--log-bytes", "512K"}).logBytes())
        .isEqualTo(512 * 1024);
  }

  @Test
  void badValuesAreRefusedNamingTheOption() {
    assertThatThrownBy(() -> ReplayOptions.parse(new String[] {"--value-bytes", "0"}))
        .isInstanceOf(CommandLines.UsageException.class)
        .hasMessageContaining("--value-bytes must be within [1, 1048576], got 0")
        .hasMessageContaining("Usage: java -jar tern-benchmark.jar replay");
    assertThatThrownBy(() -> ReplayOptions.parse(new String[] {"--log-bytes", "lots"}))
        .isInstanceOf(CommandLines.UsageException.class)
        .hasMessageContaining("--log-bytes")
        .hasMessageContaining("'lots' is not a byte count");
  }

  @Test
  void helpIsPrintedAndNothingRuns() throws Exception {
    CapturedOutput<ReplayOptions> help =
        CapturedOutput.of(() -> ReplayOptions.parse(new String[] {"--help"}));

    assertThat(help.result()).isNull();
    assertThat(help.out())
        .contains("Usage: java -jar tern-benchmark.jar replay")
        .contains("--log-bytes");
  }
}
