package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.exporter.ClassPathExporter;
import io.tern.engine.exporter.ExporterLoadException;
import io.tern.engine.exporter.LoadedExporter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A broker loads and configures its exporters first, and does not start if one fails. */
class BrokerExportersTest {
  @TempDir Path dir;

  @Test
  void aBrokerKeepsTheExportersItConfigured() throws Exception {
    BrokerConfig config =
        TestBrokers.config(
            dir,
            Map.of(
                "TERN_EXPORTERS_LOCAL_CLASSNAME",
                ClassPathExporter.class.getName(),
                "TERN_EXPORTERS_LOCAL_ARGS_URL",
                "http://localhost:9200"));
    try (Broker broker = Broker.start(config)) {
      assertThat(broker.exporters()).extracting(LoadedExporter::id).containsExactly("local");
      LoadedExporter local = broker.exporters().get(0);
      ClassPathExporter exporter = (ClassPathExporter) local.exporter();
      assertThat(exporter.context).isSameAs(local.context());
      assertThat(exporter.context.getConfiguration().getArguments())
          .isEqualTo(Map.of("url", "http://localhost:9200"));
      assertThat(local.context().getPartitionId()).isEqualTo(1);
      assertThat(broker.partitions().get(0).director())
          .as("the leader's director, exporting Zeebe records (Broker.DEFAULT_MAPPERS)")
          .isNotNull();
    }
  }

  /** The exporters are checked first: a bad one stops the broker before any port or lock. */
  @Test
  void aBrokerWhoseExporterDoesNotLoadDoesNotStart() {
    BrokerConfig config =
        BrokerConfigLoader.load(
            null,
            Map.of(
                "TERN_DATA_DIRECTORY",
                dir.resolve("data").toString(),
                "TERN_EXPORTERS_TYPO_CLASSNAME",
                "acme.NoSuchExporter"));
    assertThatThrownBy(() -> Broker.start(config))
        .isInstanceOf(ExporterLoadException.class)
        .hasMessage(
            "exporter 'typo': class acme.NoSuchExporter not found on the broker's class path"
                + " (exporters.typo.jarPath is not set)");
    assertThat(dir.resolve("data")).doesNotExist();
  }
}
