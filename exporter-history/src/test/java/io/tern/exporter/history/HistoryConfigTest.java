package io.tern.exporter.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryConfigTest {
  private static final String URL = "jdbc:postgresql://db:5432/tern";

  @TempDir Path dir;

  private static HistoryConfig.Settings settings(Map<String, Object> args) {
    return new TestConfiguration("history", args)
        .instantiate(HistoryConfig.class)
        .validate("history");
  }

  private static Map<String, Object> with(Object... keysAndValues) {
    Map<String, Object> args = new HashMap<>();
    args.put("url", URL);
    for (int i = 0; i < keysAndValues.length; i += 2) {
      args.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return args;
  }

  @Test
  void defaults() {
    HistoryConfig.Settings settings = settings(with());
    assertThat(settings.dialect()).isSameAs(SqlDialect.POSTGRESQL);
    assertThat(settings.batchSize()).isEqualTo(500);
    assertThat(settings.flushInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(settings.retention()).isEqualTo(Duration.ofDays(30));
    assertThat(settings.retentionCheckInterval()).isEqualTo(Duration.ofMinutes(10));
    assertThat(settings.retentionBatchSize()).isEqualTo(1000);
    assertThat(settings.username()).isNull();
    assertThat(settings.password()).isNull();
  }

  @Test
  void argsInAnyCaseAndDurationsAsTextOrSeconds() {
    // Not with(): that adds "url", which the broker would take as the same arg as "URL".
    HistoryConfig.Settings settings =
        settings(
            Map.of(
                "URL", "jdbc:h2:file:./data/history",
                "BatchSize", "50",
                "flushinterval", 2,
                "retention", "P7D",
                "retentionCheckInterval", "PT1M"));
    assertThat(settings.dialect()).isSameAs(SqlDialect.H2);
    assertThat(settings.batchSize()).isEqualTo(50);
    assertThat(settings.flushInterval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(settings.retention()).isEqualTo(Duration.ofDays(7));
    assertThat(settings.retentionCheckInterval()).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void zeroRetentionKeepsEverything() {
    assertThat(settings(with("retention", 0)).retentionEnabled()).isFalse();
    assertThat(settings(with()).retentionEnabled()).isTrue();
  }

  @Test
  void badValuesNameTheArg() {
    assertThatThrownBy(() -> settings(with("batchSize", 0)))
        .hasMessageContaining("exporters.history.args.batchSize");
    assertThatThrownBy(() -> settings(with("flushInterval", "PT0S")))
        .hasMessageContaining("exporters.history.args.flushInterval");
    assertThatThrownBy(() -> settings(with("retention", "-P1D")))
        .hasMessageContaining("exporters.history.args.retention");
    assertThatThrownBy(() -> settings(with("retentionCheckInterval", 0)))
        .hasMessageContaining("exporters.history.args.retentionCheckInterval");
    assertThatThrownBy(() -> settings(with("retentionBatchSize", -1)))
        .hasMessageContaining("exporters.history.args.retentionBatchSize");
    assertThatThrownBy(() -> settings(with("url", " ")))
        .hasMessageContaining("exporters.history.args.url is required");
    assertThatThrownBy(() -> settings(with("url", "jdbc:oracle:thin:@db")))
        .hasMessageContaining("exporters.history.args.url")
        .hasMessageContaining("jdbc:h2: or jdbc:postgresql:");
  }

  @Test
  void thePasswordComesFromAFileWithoutItsLineBreak() throws Exception {
    Path file = Files.writeString(dir.resolve("password"), "s3cret\n");
    HistoryConfig.Settings settings =
        settings(with("username", "tern", "passwordFile", file.toString()));
    assertThat(settings.password()).isEqualTo("s3cret");
    assertThat(settings.username()).isEqualTo("tern");
    assertThat(settings.toString()).doesNotContain("s3cret").contains("password=***");
  }

  @Test
  void aPasswordFileThatCannotBeReadOrTwoPasswordsAreRefused() {
    assertThatThrownBy(() -> settings(with("passwordFile", dir.resolve("none").toString())))
        .hasMessageContaining("exporters.history.args.passwordFile");
    assertThatThrownBy(() -> settings(with("password", "a", "passwordFile", "/run/secret")))
        .hasMessageContaining("exporters.history.args.password and")
        .hasMessageContaining("set one of them");
  }

  @Test
  void theSettingsNeverShowThePassword() {
    HistoryConfig.Settings settings =
        settings(
            with("url", "jdbc:postgresql://tern:inline@db/tern?password=inurl", "password", "arg"));
    assertThat(settings.toString()).doesNotContain("inline", "inurl", "=arg");
  }
}
