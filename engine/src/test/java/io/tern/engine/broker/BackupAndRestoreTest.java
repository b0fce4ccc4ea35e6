package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.tern.engine.backup.BackupRestore;
import io.tern.engine.backup.S3Proxies;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A backup of a 3-broker cluster (2 partitions, replication factor 3) to each store (a file system;
 * S3, gzipped, on s3proxy), taken through {@code /actuator/backups} while instances are created,
 * then every broker's data deleted and restored from it: what was acknowledged before the
 * checkpoint is there with its variables, what was created after it is not, and the restored
 * cluster takes new work and new backups.
 */
@Tag("slow") // clusters of three brokers started twice, and an S3 server: docs/testing.md
class BackupAndRestoreTest {
  private static final int BROKERS = 3;
  private static final int PARTITIONS = 2;

  @TempDir Path dir;

  private S3Proxies s3;

  @AfterEach
  void stopS3() throws Exception {
    if (s3 != null) {
      s3.close();
    }
  }

  /** The settings of {@code store}: a directory under the test's, or a new bucket. */
  private Map<String, String> storeSettings(String store, Path backups) throws Exception {
    if (store.equals("filesystem")) {
      return Map.of(
          "TERN_DATA_BACKUP_STORE",
          "filesystem",
          "TERN_DATA_BACKUP_FILESYSTEM_BASEPATH",
          backups.toString());
    }
    s3 = S3Proxies.start();
    return Map.of(
        "TERN_DATA_BACKUP_STORE",
        "s3",
        "TERN_DATA_BACKUP_S3_ENDPOINT",
        s3.endpoint(),
        "TERN_DATA_BACKUP_S3_BUCKETNAME",
        s3.newBucket(),
        "TERN_DATA_BACKUP_S3_ACCESSKEY",
        S3Proxies.ACCESS,
        "TERN_DATA_BACKUP_S3_SECRETKEY",
        S3Proxies.SECRET,
        "TERN_DATA_BACKUP_S3_FORCEPATHSTYLEACCESS",
        "true",
        "TERN_DATA_BACKUP_S3_COMPRESSION",
        "gzip",
        "TERN_DATA_BACKUP_S3_BASEPATH",
        "cluster-a");
  }

  private TestCluster cluster(Map<String, String> store, int partitions) {
    Map<String, String> settings = new HashMap<>(store);
    // Snapshots now and then, so that a backup holds one and the log after it.
    settings.put("TERN_DATA_SNAPSHOTEVERYRECORDS", "200");
    return new TestCluster(dir, BROKERS, partitions, 3, settings);
  }

  @ParameterizedTest
  @ValueSource(strings = {"filesystem", "s3"})
  void aBackupIsTakenListedRestoredIntoWipedBrokersAndDeleted(String kind) throws Exception {
    Path backups = dir.resolve("backups");
    Map<String, String> store = storeSettings(kind, backups);
    Map<Long, Integer> before = new HashMap<>();
    List<Long> after = new ArrayList<>();
    try (TestCluster cluster = cluster(store, PARTITIONS).start()) {
      cluster.awaitReady(Duration.ofSeconds(60));
      try (CamundaClient client = cluster.client()) {
        deploy(client);
        for (int i = 0; i < 40; i++) {
          before.put(create(client, i), i);
        }
        // Needs the token, as every operation.
        assertThat(post(cluster, "{\"backupId\": 5}", null).statusCode()).isEqualTo(401);
        HttpResponse<String> taken = post(cluster, "{\"backupId\": 5}", TestBrokers.BEARER);
        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(202);
        assertThat(taken.body()).contains("A backup with id 5 has been scheduled");
        // Processing goes on while the parts are stored.
        for (int i = 0; i < 20; i++) {
          after.add(create(client, 1000 + i));
        }
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> completed(cluster, 5));
        String status = get(cluster, "/actuator/backups/5").body();
        assertThat(status)
            .startsWith("{\"backupId\":5,\"state\":\"COMPLETED\"")
            .contains("\"partitionId\":1,\"state\":\"COMPLETED\"")
            .contains("\"partitionId\":2,\"state\":\"COMPLETED\"")
            .contains("\"checkpointPosition\":")
            .contains("\"brokerVersion\":\"8.6.0\"");
        // Ids only increase: the same id or a lower one is refused on every partition.
        HttpResponse<String> again = post(cluster, "{\"backupId\": 5}", TestBrokers.BEARER);
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(again.body()).contains("not above the last checkpoint's id 5");
        assertThat(post(cluster, "{\"backupId\": 4}", TestBrokers.BEARER).statusCode())
            .isEqualTo(409);
        assertThat(get(cluster, "/actuator/backups").body())
            .startsWith("[{\"backupId\":5,\"state\":\"COMPLETED\"");
        assertThat(get(cluster, "/actuator/backups/6").statusCode()).isEqualTo(404);
        // Each partition's leader counted its part: 2 parts taken across the brokers.
        int partsTaken = 0;
        for (int node = 0; node < BROKERS; node++) {
          String metrics = send(cluster.broker(node), "GET", "/actuator/prometheus", null).body();
          assertThat(metricValue(metrics, "tern_backup_parts_in_progress")).isZero();
          partsTaken += (int) metricValue(metrics, "tern_backup_parts_taken_total");
        }
        assertThat(partsTaken).isEqualTo(PARTITIONS);
      }
    }

    TestCluster stopped = cluster(store, PARTITIONS);
    // A data directory that is not empty is refused, and left as it was.
    assertThatThrownBy(() -> RestoreMain.restore(stopped.config(0), 5))
        .isInstanceOf(BackupRestore.RestoreException.class)
        .hasMessageContaining("is not empty");
    for (int node = 0; node < BROKERS; node++) {
      deleteRecursively(stopped.config(node).dataDirectory());
    }
    assertThatThrownBy(() -> RestoreMain.restore(stopped.config(0), 99))
        .hasMessageContaining("backup 99 does not exist in " + kind);
    TestCluster otherTopology = cluster(store, PARTITIONS + 1);
    assertThatThrownBy(() -> RestoreMain.restore(otherTopology.config(0), 5))
        .hasMessageContaining("taken of a cluster of 3 broker(s), 2 partition(s)");
    assertThat(stopped.config(0).dataDirectory()).doesNotExist();
    for (int node = 0; node < BROKERS; node++) {
      BackupRestore.Restored restored = RestoreMain.restore(stopped.config(node), 5);
      assertThat(restored.checkpointPositions()).containsOnlyKeys(1, 2);
      assertThat(BackupRestore.restoredAlready(stopped.config(node).dataDirectory(), 5)).isTrue();
    }

    try (TestCluster cluster = cluster(store, PARTITIONS).start()) {
      cluster.awaitReady(Duration.ofSeconds(60));
      for (Map.Entry<Long, Integer> instance : before.entrySet()) {
        HttpResponse<String> found = instance(cluster, instance.getKey());
        assertThat(found.statusCode()).as(found.body()).isEqualTo(200);
        assertThat(found.body())
            .contains("\"variables\":{\"n\":" + instance.getValue() + "}")
            .contains("\"elementId\":\"work\",\"elementType\":\"SERVICE_TASK\"");
      }
      // Nothing of after the checkpoint: not the instances created while the parts were stored.
      for (long key : after) {
        assertThat(instance(cluster, key).statusCode()).isEqualTo(404);
      }
      // The restored cluster works: its instances' jobs complete, new instances start.
      try (CamundaClient client = cluster.client()) {
        long fresh = create(client, 7777);
        assertThat(instance(cluster, fresh).statusCode()).isEqualTo(200);
        List<ActivatedJob> jobs =
            client
                .newActivateJobsCommand()
                .jobType("work")
                .maxJobsToActivate(10)
                .send()
                .join()
                .getJobs();
        assertThat(jobs).isNotEmpty();
        for (ActivatedJob job : jobs) {
          client.newCompleteCommand(job).send().join();
        }
      }
      // A restored cluster still knows checkpoint 5: only a higher id is taken.
      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> post(cluster, "{\"backupId\": 5}", TestBrokers.BEARER).statusCode() == 409);
      assertThat(post(cluster, "{\"backupId\": 6}", TestBrokers.BEARER).statusCode())
          .isEqualTo(202);
      Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> completed(cluster, 6));
      assertThat(get(cluster, "/actuator/backups/5").body()).contains("\"state\":\"COMPLETED\"");

      HttpResponse<String> deleted = call(cluster, "DELETE", "/actuator/backups/5", null);
      assertThat(deleted.statusCode()).isEqualTo(204);
      assertThat(get(cluster, "/actuator/backups/5").statusCode()).isEqualTo(404);
      if (kind.equals("filesystem")) {
        assertThat(backups.resolve("5")).doesNotExist();
      }
      assertThat(get(cluster, "/actuator/backups").body()).startsWith("[{\"backupId\":6,");
    }
  }

  private static double metricValue(String scrape, String name) {
    return scrape
        .lines()
        .filter(line -> line.startsWith(name + " ") || line.startsWith(name + "{"))
        .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
        .sum();
  }

  /** Whether the backup as a whole (not only a partition's part) is COMPLETED. */
  private static boolean completed(TestCluster cluster, long backupId) throws Exception {
    return get(cluster, "/actuator/backups/" + backupId)
        .body()
        .startsWith("{\"backupId\":" + backupId + ",\"state\":\"COMPLETED\"");
  }

  private static void deploy(CamundaClient client) {
    client
        .newDeployResourceCommand()
        .addProcessModel(
            Bpmn.createExecutableProcess("backup")
                .startEvent()
                .serviceTask("work", task -> task.zeebeJobType("work"))
                .endEvent()
                .done(),
            "backup.bpmn")
        .send()
        .join();
  }

  private static long create(CamundaClient client, int n) {
    return client
        .newCreateInstanceCommand()
        .bpmnProcessId("backup")
        .latestVersion()
        .variables(Map.of("n", n))
        .send()
        .join()
        .getProcessInstanceKey();
  }

  /** The instance as its partition's leader has it (with its variables: the token is sent). */
  private static HttpResponse<String> instance(TestCluster cluster, long key) throws Exception {
    int partition = (int) (key >> 51);
    int leader = cluster.leaderOf(partition);
    return send(cluster.broker(leader), "GET", "/actuator/instances/" + key, null);
  }

  private static HttpResponse<String> get(TestCluster cluster, String path) throws Exception {
    return call(cluster, "GET", path, null);
  }

  private static HttpResponse<String> post(TestCluster cluster, String body, String authorization)
      throws Exception {
    return send(cluster.broker(0), "POST", "/actuator/backups", body, authorization);
  }

  private static HttpResponse<String> call(
      TestCluster cluster, String method, String path, String body) throws Exception {
    return send(cluster.broker(0), method, path, body, TestBrokers.BEARER);
  }

  private static HttpResponse<String> send(Broker broker, String method, String path, String body)
      throws Exception {
    return send(broker, method, path, body, TestBrokers.BEARER);
  }

  private static HttpResponse<String> send(
      Broker broker, String method, String path, String body, String authorization)
      throws IOException, InterruptedException {
    return ManagementCalls.send(
        broker.managementPort(), method, path, body, authorization, Duration.ofSeconds(30));
  }

  private static void deleteRecursively(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
