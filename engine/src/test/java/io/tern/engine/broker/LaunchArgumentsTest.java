package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/broker's and bin/gateway's command line, and which configuration files they read. */
class LaunchArgumentsTest {
  @TempDir Path dir;

  private static LaunchArguments parse(String... args) {
    return LaunchArguments.parse(args, null, null, Path.of("no-such-working-directory"));
  }

  @Test
  void helpIsAskedForWithEitherSpelling() {
    assertThat(parse("--help").help()).isTrue();
    assertThat(parse("-h").help()).isTrue();
    assertThat(LaunchArguments.usage("broker", "a Tern broker"))
        .contains("Usage: bin/broker [CONFIG.yaml]")
        .contains("TERN_JAVA_OPTS")
        .contains("-Xmx2g")
        .contains("logging.level")
        .contains("the distribution's file")
        .contains("docs/configuration.md")
        .contains("Exit codes: 0 stopped (Ctrl-C, SIGTERM)");
  }

  @Test
  void theUsageNamesNoPageThatIsNotThere() {
    assertThat(Path.of("..", "docs", "configuration.md"))
        .isRegularFile(); // the build runs in engine/
    assertThat(LaunchArguments.usage("gateway", "a gateway")).doesNotContain("README");
  }

  @Test
  void theFileComesFromTheArgumentThenTheEnvironment() {
    Path cwd = Path.of("no-such-working-directory");
    assertThat(
            LaunchArguments.parse(new String[] {"my.yaml"}, "other.yaml", null, cwd).configFiles())
        .containsExactly(Path.of("my.yaml"));
    assertThat(LaunchArguments.parse(new String[0], "other.yaml", null, cwd).configFiles())
        .containsExactly(Path.of("other.yaml"));
    assertThat(LaunchArguments.parse(new String[0], null, null, cwd).configFiles()).isEmpty();
  }

  @Test
  void theDistributionsFileIsReadFromAnyWorkingDirectoryAndLosesToTheNamedOne() throws IOException {
    Path home = dir.resolve("tern");
    Path shipped = write(home.resolve("config/tern.yaml"), "cluster.partitionsCount: 3\n");
    Path root = Files.createDirectories(dir.resolve("repository-root")); // no config/ here
    Path mine = write(dir.resolve("mine.yaml"), "cluster.partitionsCount: 5\n");

    List<Path> fromRoot = LaunchArguments.parse(new String[0], null, home, root).configFiles();
    assertThat(fromRoot).containsExactly(shipped);
    assertThat(BrokerConfigLoader.loadFiles(fromRoot, Map.of()).partitionsCount()).isEqualTo(3);

    List<Path> named =
        LaunchArguments.parse(new String[] {mine.toString()}, null, home, root).configFiles();
    assertThat(named).containsExactly(shipped, mine);
    assertThat(BrokerConfigLoader.loadFiles(named, Map.of()).partitionsCount()).isEqualTo(5);

    Path local = write(root.resolve("config/tern.yaml"), "cluster.replicationFactor: 1\n");
    assertThat(LaunchArguments.parse(new String[0], null, home, root).configFiles())
        .containsExactly(shipped, local);
  }

  @Test
  void aBadValueInTheDistributionsFileIsRefusedNamingThatFile() throws IOException {
    Path home = dir.resolve("tern");
    Path shipped = write(home.resolve("config/tern.yaml"), "cluster.partitionsCount: 0\n");
    List<Path> files =
        LaunchArguments.parse(new String[0], null, home, dir.resolve("elsewhere")).configFiles();
    assertThatThrownBy(() -> BrokerConfigLoader.loadFiles(files, Map.of()))
        .isInstanceOf(BrokerConfigLoader.ConfigException.class)
        .hasMessageContaining("'cluster.partitionsCount' = '0' (from " + shipped + ")");
  }

  @Test
  void startedFromTheDistributionItsFileIsReadOnce() throws IOException {
    Path home = dir.resolve("tern");
    write(home.resolve("config/tern.yaml"), "cluster.partitionsCount: 3\n");
    assertThat(LaunchArguments.parse(new String[0], null, home, home).configFiles()).hasSize(1);
    assertThat(
            LaunchArguments.parse(
                    new String[] {home.resolve("./config/tern.yaml").toString()}, null, home, dir)
                .configFiles())
        .as("the distribution's file named as the argument")
        .hasSize(1);
  }

  @Test
  void theLogLineNamesTheFilesReadOrThatNoneWas() {
    BrokerConfig defaults = BrokerConfigLoader.loadFiles(List.of(), Map.of());
    assertThat(new LaunchArguments.Loaded(defaults, List.of()).describeFiles())
        .isEqualTo("Configuration: no file read (the defaults and TERN_* environment variables)");
    assertThat(
            new LaunchArguments.Loaded(defaults, List.of(Path.of("a.yaml"), Path.of("b.yaml")))
                .describeFiles())
        .isEqualTo(
            "Configuration read from a.yaml, then b.yaml (a key set in both takes the later"
                + " file's value); TERN_* environment variables win over both");
  }

  @Test
  void aSecondArgumentOrAnUnknownOptionIsRefusedNamingIt() {
    assertThatThrownBy(() -> parse("a.yaml", "b.yaml"))
        .hasMessageContaining("at most one argument")
        .hasMessageContaining("a.yaml b.yaml");
    assertThatThrownBy(() -> parse("--verbose")).hasMessageContaining("unknown option --verbose");
  }

  private static Path write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    return Files.writeString(file, text);
  }
}
