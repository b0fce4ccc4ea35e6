package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.backup.BackupRestore;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup one of whose partitions has no stored part (here: deleted from the store; in production
 * also a leader that failed before storing it) is INCOMPLETE in {@code GET /actuator/backups/{id}}
 * and in the list, that partition DOES_NOT_EXIST; bin/restore refuses it, naming the partition.
 */
@Tag("slow") // a broker end to end: docs/testing.md
class IncompleteBackupTest {
  @TempDir Path dir;

  @Test
  void aBackupWithoutAPartitionsPartIsIncompleteAndRefusedByRestore() throws Exception {
    Path backups = dir.resolve("backups");
    BrokerConfig config =
        TestBrokers.config(
            dir.resolve("broker"),
            Map.of(
                "TERN_CLUSTER_PARTITIONSCOUNT",
                "2",
                "TERN_DATA_BACKUP_STORE",
                "filesystem",
                "TERN_DATA_BACKUP_FILESYSTEM_BASEPATH",
                backups.toString()));
    try (Broker broker = Broker.start(config)) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      HttpResponse<String> taken = call(broker, "POST", "/actuator/backups/3");
      assertThat(taken.statusCode()).as(taken.body()).isEqualTo(202);
      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  call(broker, "GET", "/actuator/backups/3")
                      .body()
                      .startsWith("{\"backupId\":3,\"state\":\"COMPLETED\""));

      deleteRecursively(backups.resolve("3").resolve("2"));

      HttpResponse<String> status = call(broker, "GET", "/actuator/backups/3");
      assertThat(status.statusCode()).isEqualTo(200);
      assertThat(status.body())
          .startsWith("{\"backupId\":3,\"state\":\"INCOMPLETE\"")
          .contains("\"failureReason\":\"partition 2 has no stored part")
          .contains("{\"partitionId\":1,\"state\":\"COMPLETED\"")
          .contains("{\"partitionId\":2,\"state\":\"DOES_NOT_EXIST\"}");
      assertThat(call(broker, "GET", "/actuator/backups").body())
          .startsWith("[{\"backupId\":3,\"state\":\"INCOMPLETE\"")
          .contains("{\"partitionId\":2,\"state\":\"DOES_NOT_EXIST\"}");
    }

    deleteRecursively(config.dataDirectory());
    assertThatThrownBy(() -> RestoreMain.restore(config, 3))
        .isInstanceOf(BackupRestore.RestoreException.class)
        .hasMessageContaining("backup 3 is INCOMPLETE, so it cannot be restored")
        .hasMessageContaining("partition 2 has no stored part");
    assertThat(config.dataDirectory()).doesNotExist();
  }

  private static HttpResponse<String> call(Broker broker, String method, String path)
      throws IOException, InterruptedException {
    return ManagementCalls.send(
        broker.managementPort(), method, path, null, TestBrokers.BEARER, Duration.ofSeconds(30));
  }

  private static void deleteRecursively(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
