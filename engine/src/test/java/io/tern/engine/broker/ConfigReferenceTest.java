package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The configuration reference and the annotated example are what {@link ConfigReference} generates
 * from {@link ConfigKeys}. After changing a key, regenerate both with {@code ./mvnw -q -pl engine
 * test -Dtest=ConfigReferenceTest -Dtern.writeDocs=true}.
 */
class ConfigReferenceTest {
  // The build runs in engine/.
  private static final Path REFERENCE = Path.of("..", "docs", "configuration.md");
  private static final Path EXAMPLE = Path.of("src", "main", "dist", "config", "tern.yaml");
  private static final String HOW =
      "generated from ConfigKeys: run ./mvnw -q -pl engine test -Dtest=ConfigReferenceTest"
          + " -Dtern.writeDocs=true";

  @TempDir Path dir;

  @Test
  void theReferenceAndTheExampleAreUpToDate() throws IOException {
    if (Boolean.getBoolean("tern.writeDocs")) {
      Files.writeString(REFERENCE, ConfigReference.markdown(), StandardCharsets.UTF_8);
      Files.writeString(EXAMPLE, ConfigReference.yaml(), StandardCharsets.UTF_8);
    }
    assertThat(Files.readString(REFERENCE))
        .as(REFERENCE + " " + HOW)
        .isEqualTo(ConfigReference.markdown());
    assertThat(Files.readString(EXAMPLE)).as(EXAMPLE + " " + HOW).isEqualTo(ConfigReference.yaml());
  }

  @Test
  void everyKeyIsUniqueAndNamedWithItsVariableAndDefault() {
    assertThat(ConfigKeys.BY_LOWER_NAME).hasSize(ConfigKeys.ALL.size());
    String reference = ConfigReference.markdown();
    for (ConfigKeys.Key key : ConfigKeys.ALL) {
      String defaultText =
          key.defaultValue().isEmpty() ? "(empty)" : "`" + key.defaultValue() + "`";
      assertThat(reference)
          .contains(
              "| `"
                  + key.name()
                  + "` | `"
                  + ConfigReference.environmentVariable(key.name())
                  + "` | "
                  + defaultText
                  + " |");
    }
  }

  @Test
  void theExampleAsShippedAndWithEveryKeyUncommentedLoadsAsTheDefaults() throws IOException {
    Path shipped = dir.resolve("shipped.yaml");
    Files.writeString(shipped, ConfigReference.yaml());
    assertThat(BrokerConfigLoader.load(shipped, Map.of())).isEqualTo(BrokerConfig.defaults());

    StringBuilder uncommented = new StringBuilder();
    for (String line : ConfigReference.yaml().split("\n")) {
      if (line.matches("# [a-z]+\\.[A-Za-z0-9.]+: .*")) { // digits: data.backup.s3.*
        uncommented.append(line.substring(2)).append('\n');
      }
    }
    Path every = dir.resolve("every.yaml");
    Files.writeString(every, uncommented);
    assertThat(uncommented.toString().lines().count()).isEqualTo(ConfigKeys.ALL.size());
    assertThat(BrokerConfigLoader.load(every, Map.of())).isEqualTo(BrokerConfig.defaults());
  }

  /** The README's first commands say what a fresh broker takes; the numbers are the defaults. */
  @Test
  void theReadmeStatesTheDiskDefaults() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md")).replaceAll("\\s+", " ");
    String segment = ConfigKeys.BY_LOWER_NAME.get("journal.segmentsize").defaultValue();
    String floor = ConfigKeys.BY_LOWER_NAME.get("data.disk.minfreebytes").defaultValue();
    assertThat(segment).as("update the README's first commands too").isEqualTo("128MB");
    assertThat(floor).as("update the README's first commands too").isEqualTo("2GB");
    assertThat(readme)
        .contains("about 257 MB under `./data` before any work")
        .contains("128 MB each")
        .contains("below 2 GB free")
        .contains("`data.disk.minFreeBytes`")
        .contains("TERN_JAVA_OPTS=\"-Xmx2g\"");
  }
}
