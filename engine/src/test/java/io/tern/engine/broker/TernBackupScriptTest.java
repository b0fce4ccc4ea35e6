package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's {@code tern-backup} (the chart's backup CronJob runs it) against a broker: it takes a
 * backup and waits for it to complete; a wrong token stops it at once.
 */
@Tag("slow") // a broker end to end, and the image's script run with bash: docs/testing.md
class TernBackupScriptTest {
  private static final Path SCRIPT = Path.of("..", "docker", "bin", "tern-backup");

  @TempDir Path dir;

  private record Run(int exit, String output) {}

  private Run script(int port, String token) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder("bash", SCRIPT.toString(), "127.0.0.1:" + port)
            .redirectErrorStream(true);
    builder.environment().keySet().removeIf(key -> key.startsWith("TERN_"));
    builder.environment().put("TERN_MANAGEMENT_SECURITY_TOKEN", token);
    builder.environment().put("TERN_BACKUP_TIMEOUT", "60");
    Path log = Files.createTempFile(dir, "tern-backup", ".log");
    Process process = builder.redirectOutput(log.toFile()).start();
    if (!process.waitFor(Duration.ofSeconds(90).toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("tern-backup did not end: " + Files.readString(log));
    }
    return new Run(process.exitValue(), Files.readString(log));
  }

  @Test
  void takesABackupAndWaitsUntilItIsCompleted() throws Exception {
    Path backups = dir.resolve("backups");
    try (Broker broker =
        Broker.start(
            TestBrokers.config(
                dir.resolve("broker"),
                Map.of(
                    "TERN_DATA_BACKUP_STORE",
                    "filesystem",
                    "TERN_DATA_BACKUP_FILESYSTEM_BASEPATH",
                    backups.toString())))) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();

      Run wrongToken = script(broker.managementPort(), "not-the-token-0123456789");
      assertThat(wrongToken.exit()).isEqualTo(1);
      assertThat(wrongToken.output()).contains("answered 401");

      Run taken = script(broker.managementPort(), TestBrokers.MANAGEMENT_TOKEN);
      assertThat(taken.exit()).as(taken.output()).isZero();
      assertThat(taken.output()).containsPattern("backup \\d+ COMPLETED");
      try (var ids = Files.list(backups)) {
        assertThat(ids).hasSize(1);
      }
    }
  }
}
