package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.tern.engine.backup.BackupRestore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup of a 3-broker cluster (2 partitions, replication factor 3) to a file-system store, taken
 * through {@code /actuator/backups} while instances are created, then every broker's data deleted
 * and restored from it: what was acknowledged before the checkpoint is there with its variables,
 * what was created after it is not, and the restored cluster takes new work and new backups.
 */
@Tag("slow")
class BackupAndRestoreTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final int BROKERS = 3;
  private static final int PARTITIONS = 2;

  @TempDir Path dir;

  private TestCluster cluster(Path backups) {
    return new TestCluster(
        dir,
        BROKERS,
        PARTITIONS,
        3,
        Map.of(
            "TERN_DATA_BACKUP_STORE", "filesystem",
            "TERN_DATA_BACKUP_FILESYSTEM_BASEPATH", backups.toString(),
            // Snapshots now and then, so that a backup holds one and the log after it.
            "TERN_DATA_SNAPSHOTEVERYRECORDS", "200"));
  }

  @Test
  void aBackupIsTakenListedRestoredIntoWipedBrokersAndDeleted() throws Exception {
    Path backups = dir.resolve("backups");
    Map<Long, Integer> before = new HashMap<>();
    List<Long> after = new ArrayList<>();
    try (TestCluster cluster = cluster(backups).start()) {
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
        Awaitility.await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> get(cluster, "/actuator/backups/5").body().contains("\"COMPLETED\""));
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
      }
    }

    TestCluster stopped = cluster(backups);
    // A data directory that is not empty is refused, and left as it was.
    assertThatThrownBy(() -> RestoreMain.restore(stopped.config(0), 5))
        .isInstanceOf(BackupRestore.RestoreException.class)
        .hasMessageContaining("is not empty");
    for (int node = 0; node < BROKERS; node++) {
      deleteRecursively(stopped.config(node).dataDirectory());
    }
    assertThatThrownBy(() -> RestoreMain.restore(stopped.config(0), 99))
        .hasMessageContaining("backup 99 does not exist in filesystem " + backups);
    TestCluster otherTopology =
        new TestCluster(
            dir,
            BROKERS,
            PARTITIONS + 1,
            3,
            Map.of(
                "TERN_DATA_BACKUP_STORE",
                "filesystem",
                "TERN_DATA_BACKUP_FILESYSTEM_BASEPATH",
                backups.toString()));
    assertThatThrownBy(() -> RestoreMain.restore(otherTopology.config(0), 5))
        .hasMessageContaining("taken of a cluster of 3 broker(s), 2 partition(s)");
    assertThat(stopped.config(0).dataDirectory()).doesNotExist();
    for (int node = 0; node < BROKERS; node++) {
      BackupRestore.Restored restored = RestoreMain.restore(stopped.config(node), 5);
      assertThat(restored.checkpointPositions()).containsOnlyKeys(1, 2);
    }

    try (TestCluster cluster = cluster(backups).start()) {
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
      Awaitility.await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> get(cluster, "/actuator/backups/6").body().contains("\"COMPLETED\""));
      assertThat(get(cluster, "/actuator/backups/5").body()).contains("\"state\":\"COMPLETED\"");

      HttpResponse<String> deleted = call(cluster, "DELETE", "/actuator/backups/5", null);
      assertThat(deleted.statusCode()).isEqualTo(204);
      assertThat(get(cluster, "/actuator/backups/5").statusCode()).isEqualTo(404);
      assertThat(backups.resolve("5")).doesNotExist();
      assertThat(get(cluster, "/actuator/backups").body()).startsWith("[{\"backupId\":6,");
    }
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
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + broker.managementPort() + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json")
            .timeout(Duration.ofSeconds(30));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
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
