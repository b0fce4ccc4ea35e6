package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.exporter.ExporterDescriptor;
import io.tern.engine.gateway.history.HistoryReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in history store among the exporters: on by default, where it writes, when not. */
class HistoryDefaultsTest {
  @TempDir Path dir;

  @Test
  void aSingleBrokerWritesItsHistoryToAnH2FileUnderItsDataWithNoSetup() {
    ExporterDescriptor history = history(Map.of()).orElseThrow();
    assertThat(history.className()).isEqualTo("io.tern.exporter.history.HistoryExporter");
    assertThat(history.jarPath()).isNull();
    assertThat(history.args())
        .containsExactly(
            Map.entry(
                "url", "jdbc:h2:file:" + dir.resolve("data/history/history").toAbsolutePath()));
  }

  @Test
  void aClusterRunsItOnlyWithADatabaseUrlItsBrokersShare() {
    assertThat(history(Map.of("TERN_CLUSTER_CLUSTERSIZE", "3"))).isEmpty();
    assertThat(
            history(
                    Map.of(
                        "TERN_CLUSTER_CLUSTERSIZE", "3",
                        "TERN_EXPORTERS_HISTORY_ARGS_RETENTION", "P1D"))
                .orElseThrow()
                .className())
        .as("args without a url: the exporter itself refuses them, naming the url")
        .isEqualTo(HistoryDefaults.CLASS_NAME);

    ExporterDescriptor shared =
        history(
                Map.of(
                    "TERN_CLUSTER_CLUSTERSIZE", "3",
                    "TERN_EXPORTERS_HISTORY_ARGS_URL", "jdbc:postgresql://db/tern",
                    "TERN_EXPORTERS_HISTORY_ARGS_USERNAME", "tern"))
            .orElseThrow();
    assertThat(shared.className()).isEqualTo(HistoryDefaults.CLASS_NAME);
    assertThat(shared.args())
        .containsEntry("url", "jdbc:postgresql://db/tern")
        .containsEntry("username", "tern");
  }

  @Test
  void offItIsNotRunAndAnExporterOfTheUsersOwnUnderItsIdGetsNoDefaults() {
    assertThat(history(Map.of("TERN_EXPORTING_HISTORY_ENABLED", "false"))).isEmpty();

    ExporterDescriptor own =
        history(Map.of("TERN_EXPORTERS_HISTORY_CLASSNAME", "acme.History")).orElseThrow();
    assertThat(own.className()).isEqualTo("acme.History");
    assertThat(own.args()).isEmpty();
  }

  @Test
  void aValueThatIsNoBooleanIsRefusedNamingTheKey() {
    assertThatThrownBy(() -> history(Map.of("TERN_EXPORTING_HISTORY_ENABLED", "maybe")))
        .isInstanceOf(BrokerConfigLoader.ConfigException.class)
        .hasMessageContaining("exporting.history.enabled");
  }

  @Test
  void theRestSearchesReadTheDatabaseTheExporterWrites() throws Exception {
    assertThat(HistoryDefaults.location(List.of(history(Map.of()).orElseThrow())).url())
        .isEqualTo("jdbc:h2:file:" + dir.resolve("data/history/history").toAbsolutePath());

    Path secret = Files.writeString(dir.resolve("secret"), "s3cret\n");
    HistoryReader.Location shared =
        HistoryDefaults.location(
            List.of(
                history(
                        Map.of(
                            "TERN_CLUSTER_CLUSTERSIZE", "3",
                            "TERN_EXPORTERS_HISTORY_ARGS_URL", "jdbc:postgresql://db/tern",
                            "TERN_EXPORTERS_HISTORY_ARGS_USERNAME", "tern",
                            "TERN_EXPORTERS_HISTORY_ARGS_PASSWORDFILE", secret.toString()))
                    .orElseThrow()));
    assertThat(shared)
        .isEqualTo(new HistoryReader.Location("jdbc:postgresql://db/tern", "tern", "s3cret"));
    assertThat(shared.toString()).doesNotContain("s3cret");

    assertThat(HistoryDefaults.location(List.of())).as("no store").isNull();
    assertThat(
            HistoryDefaults.location(
                List.of(
                    history(
                            Map.of(
                                "TERN_EXPORTERS_HISTORY_CLASSNAME", "acme.History",
                                "TERN_EXPORTERS_HISTORY_ARGS_URL", "jdbc:h2:mem:x"))
                        .orElseThrow())))
        .as("an exporter of the user's own: its database is not known to be the store")
        .isNull();
  }

  private Optional<ExporterDescriptor> history(Map<String, String> settings) {
    Map<String, String> all = new HashMap<>(settings);
    all.put("TERN_DATA_DIRECTORY", dir.resolve("data").toString());
    if (all.containsKey("TERN_CLUSTER_CLUSTERSIZE")) {
      all.put("TERN_CLUSTER_CONTACTPOINTS", "a:26501,b:26501,c:26501");
    }
    List<ExporterDescriptor> exporters = BrokerConfigLoader.load(null, all).exporters();
    return exporters.stream().filter(e -> e.id().equals("history")).findFirst();
  }
}
