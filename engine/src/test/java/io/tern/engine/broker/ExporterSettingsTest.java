package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.exporter.ExporterDescriptor;
import io.tern.engine.exporter.ExporterDirector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code exporters.<id>.*} from YAML and from TERN_EXPORTERS_* variables; {@code exporting.*}. */
class ExporterSettingsTest {
  /** The built-in history store left out: these tests are about what the user configures. */
  private static final Map<String, String> NO_HISTORY =
      Map.of("TERN_EXPORTING_HISTORY_ENABLED", "false");

  @TempDir Path dir;

  @Test
  void theDirectorsTimingsDefaultToItsConstantsAndCanBeSet() {
    assertThat(BrokerConfigLoader.load(null, Map.of()).exporting())
        .isEqualTo(ExporterDirector.Settings.defaults());
    assertThat(
            BrokerConfigLoader.load(
                    null,
                    Map.of(
                        "TERN_EXPORTING_POSITIONWRITEINTERVAL",
                        "5s",
                        "TERN_EXPORTING_RETRYMINBACKOFF",
                        "1s",
                        "TERN_EXPORTING_RETRYMAXBACKOFF",
                        "1m"))
                .exporting())
        .isEqualTo(
            new ExporterDirector.Settings(
                Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofMinutes(1)));
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null,
                    Map.of(
                        "TERN_EXPORTING_RETRYMINBACKOFF", "20s",
                        "TERN_EXPORTING_RETRYMAXBACKOFF", "10s")))
        .isInstanceOf(BrokerConfigLoader.ConfigException.class)
        .hasMessageContaining("exporting.retryMaxBackoff");
  }

  @Test
  void yamlAndEnvironmentVariablesGiveTheSameExporters() throws IOException {
    Path file = dir.resolve("tern.yaml");
    Files.writeString(
        file,
        """
        exporters:
          hazelcast:
            className: io.zeebe.hazelcast.exporter.HazelcastExporter
            jarPath: exporters/hazelcast.jar
            args:
              port: "5701"
              bulk:
                size: "10"
          onclasspath.className: acme.Exporter
        """);
    BrokerConfig fromFile = BrokerConfigLoader.load(file, NO_HISTORY);
    BrokerConfig fromEnvironment =
        BrokerConfigLoader.load(
            null,
            Map.of(
                "TERN_EXPORTERS_HAZELCAST_CLASSNAME",
                    "io.zeebe.hazelcast.exporter.HazelcastExporter",
                "TERN_EXPORTERS_HAZELCAST_JARPATH", "exporters/hazelcast.jar",
                "TERN_EXPORTERS_HAZELCAST_ARGS_PORT", "5701",
                "TERN_EXPORTERS_HAZELCAST_ARGS_BULK_SIZE", "10",
                "TERN_EXPORTERS_ONCLASSPATH_CLASSNAME", "acme.Exporter",
                "TERN_EXPORTING_HISTORY_ENABLED", "false"));

    List<ExporterDescriptor> expected =
        List.of(
            new ExporterDescriptor(
                "hazelcast",
                "io.zeebe.hazelcast.exporter.HazelcastExporter",
                Path.of("exporters/hazelcast.jar").toAbsolutePath(),
                Map.of("port", "5701", "bulk", Map.of("size", "10"))),
            new ExporterDescriptor("onclasspath", "acme.Exporter", null, Map.of()));
    assertThat(fromFile.exporters()).isEqualTo(expected);
    assertThat(fromEnvironment.exporters()).isEqualTo(expected);
    assertThat(BrokerConfig.defaults().exporters())
        .as("by default only the history store (HistoryDefaultsTest)")
        .extracting(ExporterDescriptor::id)
        .containsExactly("history");
  }

  @Test
  void yamlArgsKeepTheirTypesAndTheEnvironmentOverridesArgByArgInAnyCase() throws IOException {
    Path file = dir.resolve("tern.yaml");
    Files.writeString(
        file,
        """
        exporters:
          Elastic:
            className: acme.Elastic
            args:
              clusterName: dev
              capacity: 5
              index: {prefix: zeebe, shards: 3}
              hosts: [a, b]
        exporters.elastic.args.index.replicas: 1
        """);
    BrokerConfig config =
        BrokerConfigLoader.load(
            file,
            Map.of(
                "TERN_EXPORTERS_ELASTIC_ARGS_CLUSTERNAME", "prod",
                "TERN_EXPORTERS_ELASTIC_ARGS_INDEX_SHARDS", "6",
                "TERN_EXPORTERS_MY_EXPORTER_CLASSNAME", "acme.Mine",
                "TERN_EXPORTING_HISTORY_ENABLED", "false"));
    assertThat(config.exporters())
        .containsExactly(
            new ExporterDescriptor(
                "elastic",
                "acme.Elastic",
                null,
                Map.of(
                    "clusterName",
                    "prod",
                    "capacity",
                    5,
                    "index",
                    Map.of("prefix", "zeebe", "shards", "6", "replicas", 1),
                    "hosts",
                    List.of("a", "b"))),
            new ExporterDescriptor("my_exporter", "acme.Mine", null, Map.of()));
  }

  @Test
  void unknownKeysUnderAnExporterAndAMissingClassNameAreRefused() throws IOException {
    Path file = dir.resolve("tern.yaml");
    Files.writeString(
        file,
        """
        exporters:
          hz:
            classNme: acme.Hz
            jarPath: [a, b]
          scalar: 5
        """);
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    file,
                    Map.of(
                        "TERN_EXPORTERS_HZ_CLASSNAMES", "x",
                        "TERN_EXPORTERS_HZ_ARGS_", "y")))
        .isInstanceOf(BrokerConfigLoader.ConfigException.class)
        .hasMessageContaining(
            file
                + ": unknown key 'exporters.hz.classNme' (an exporter takes className, jarPath and"
                + " args: docs/exporters.md)")
        .hasMessageContaining(file + ": 'exporters.hz.jarPath' needs a single value")
        .hasMessageContaining(
            file + ": 'exporters.scalar' must be a mapping of className, jarPath and args")
        .hasMessageContaining(
            "environment variable TERN_EXPORTERS_HZ_CLASSNAMES names no exporter setting")
        .hasMessageContaining("environment variable TERN_EXPORTERS_HZ_ARGS_ names no exporter")
        .hasMessageContaining(
            "exporter 'hz' has no class name: set exporters.hz.className (or"
                + " TERN_EXPORTERS_HZ_CLASSNAME)");
  }
}
