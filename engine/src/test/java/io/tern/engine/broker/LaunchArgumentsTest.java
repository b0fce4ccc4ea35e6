package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** bin/broker's and bin/gateway's command line. */
class LaunchArgumentsTest {
  @Test
  void helpIsAskedForWithEitherSpelling() {
    assertThat(LaunchArguments.parse(new String[] {"--help"}, null).help()).isTrue();
    assertThat(LaunchArguments.parse(new String[] {"-h"}, null).help()).isTrue();
    assertThat(LaunchArguments.usage("broker", "a Tern broker"))
        .contains("Usage: bin/broker [CONFIG.yaml]")
        .contains("TERN_JAVA_OPTS")
        .contains("logging.level")
        .contains("Exit codes");
  }

  @Test
  void theFileComesFromTheArgumentThenTheEnvironment() {
    assertThat(LaunchArguments.parse(new String[] {"my.yaml"}, "other.yaml").configFile())
        .isEqualTo(Path.of("my.yaml"));
    assertThat(LaunchArguments.parse(new String[0], "other.yaml").configFile())
        .isEqualTo(Path.of("other.yaml"));
  }

  @Test
  void aSecondArgumentOrAnUnknownOptionIsRefusedNamingIt() {
    assertThatThrownBy(() -> LaunchArguments.parse(new String[] {"a.yaml", "b.yaml"}, null))
        .hasMessageContaining("at most one argument")
        .hasMessageContaining("a.yaml b.yaml");
    assertThatThrownBy(() -> LaunchArguments.parse(new String[] {"--verbose"}, null))
        .hasMessageContaining("unknown option --verbose");
  }
}
