package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.response.Topology;
import io.camunda.zeebe.model.bpmn.Bpmn;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wipe and restore on real broker processes: a load of instance creations runs on 3 brokers with
 * replication factor 3 while a backup is taken and after it; then every broker is killed (SIGKILL),
 * its data deleted, restored by bin/restore (a process, with the broker's environment) and started
 * again. Every instance acknowledged before the backup was asked for is there with its variables,
 * none acknowledged after the backup was answered is (the ones in between may be either), and the
 * cluster takes new work. (The chaos suite's history checker is not used: its promise that every
 * acknowledged instance ends does not hold across a restore; this test checks the restore's own
 * promises on the instances' keys and variables.)
 */
@Tag("slow") // three broker processes killed and restored: docs/testing.md
class BackupRestoreProcessesTest {
  private static final Duration READY = Duration.ofSeconds(90);

  @TempDir Path dir;

  /**
   * An acknowledged creation: its key, its variable, when it was sent and when its answer came.
   * Sent after the backup's 202 (every partition committed its checkpoint) is after the checkpoint;
   * answered before the backup was asked for is before it.
   */
  private record Created(long key, int n, long sentNs, long ackNs) {}

  @Test
  void everyInstanceAcknowledgedBeforeTheBackupIsRestoredAndNoneAfterIt() throws Exception {
    Path backups = dir.resolve("backups");
    Map<String, String> store =
        Map.of(
            "TERN_DATA_BACKUP_STORE", "filesystem",
            "TERN_DATA_BACKUP_FILESYSTEM_BASEPATH", backups.toString(),
            "TERN_DATA_SNAPSHOTEVERYRECORDS", "500");
    ConcurrentLinkedQueue<Created> created = new ConcurrentLinkedQueue<>();
    long askedNs;
    long answeredNs;
    try (BrokerProcesses brokers = new BrokerProcesses(dir.resolve("cluster"), 3, 3, 3, store)) {
      startAll(brokers);
      try (StandaloneGateway gateway = gateway(brokers);
          CamundaClient client = client(gateway)) {
        assertThat(gateway.awaitLeaders(READY)).isTrue();
        client
            .newDeployResourceCommand()
            .addProcessModel(
                Bpmn.createExecutableProcess("restored")
                    .startEvent()
                    .serviceTask("work", task -> task.zeebeJobType("work"))
                    .endEvent()
                    .done(),
                "restored.bpmn")
            .send()
            .join();
        AtomicBoolean loading = new AtomicBoolean(true);
        CompletableFuture<Void> load =
            CompletableFuture.runAsync(
                () -> {
                  for (int n = 0; loading.get(); n++) {
                    long sentNs = System.nanoTime();
                    long key =
                        client
                            .newCreateInstanceCommand()
                            .bpmnProcessId("restored")
                            .latestVersion()
                            .variables(Map.of("n", n))
                            .send()
                            .join()
                            .getProcessInstanceKey();
                    created.add(new Created(key, n, sentNs, System.nanoTime()));
                  }
                });
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> created.size() >= 100);
        askedNs = System.nanoTime();
        HttpResponse<String> taken =
            call(brokers.managementPort(0), "POST", "/actuator/backups", "{\"backupId\": 1}");
        answeredNs = System.nanoTime();
        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(202);
        int atAnswer = created.size();
        Awaitility.await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    call(brokers.managementPort(1), "GET", "/actuator/backups/1", null)
                        .body()
                        .startsWith("{\"backupId\":1,\"state\":\"COMPLETED\""));
        Awaitility.await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> created.size() >= atAnswer + 50);
        loading.set(false);
        load.join();
      }
      for (int node = 0; node < 3; node++) {
        brokers.kill(node);
      }
      for (int node = 0; node < 3; node++) {
        Map<String, String> settings = brokers.settings(node);
        deleteRecursively(Path.of(settings.get("TERN_DATA_DIRECTORY")));
        RestoreMainTest.Run restored = RestoreMainTest.run(dir, settings, "--backupId", "1");
        assertThat(restored.exit()).as(restored.output()).isZero();
        assertThat(restored.output()).contains("Restored backup 1");
      }
      startAll(brokers);
      try (StandaloneGateway gateway = gateway(brokers);
          CamundaClient client = client(gateway)) {
        assertThat(gateway.awaitLeaders(READY)).isTrue();
        Topology topology = client.newTopologyRequest().send().join();
        int before = 0;
        int after = 0;
        for (Created instance : created) {
          int partition = (int) (instance.key() >> 51);
          int leader = leaderOf(topology, partition);
          HttpResponse<String> found =
              call(
                  brokers.managementPort(leader),
                  "GET",
                  "/actuator/instances/" + instance.key(),
                  null);
          if (instance.ackNs() < askedNs) {
            before++;
            assertThat(found.statusCode()).as("instance %s", instance).isEqualTo(200);
            assertThat(found.body()).contains("\"variables\":{\"n\":" + instance.n() + "}");
          } else if (instance.sentNs() > answeredNs) {
            after++;
            assertThat(found.statusCode()).as("instance %s", instance).isEqualTo(404);
          }
        }
        assertThat(before).isGreaterThanOrEqualTo(100);
        assertThat(after).isGreaterThanOrEqualTo(50);
        // New work: instances start and their jobs complete on the restored cluster.
        long fresh =
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("restored")
                .latestVersion()
                .variables(Map.of("n", -1))
                .send()
                .join()
                .getProcessInstanceKey();
        assertThat(fresh).isPositive();
        List<ActivatedJob> jobs =
            client
                .newActivateJobsCommand()
                .jobType("work")
                .maxJobsToActivate(20)
                .send()
                .join()
                .getJobs();
        assertThat(jobs).isNotEmpty();
        for (ActivatedJob job : jobs) {
          client.newCompleteCommand(job).send().join();
        }
      }
    }
  }

  private static void startAll(BrokerProcesses brokers) throws Exception {
    for (int node = 0; node < 3; node++) {
      brokers.start(node);
    }
    for (int node = 0; node < 3; node++) {
      brokers.awaitReady(node, READY);
    }
  }

  private StandaloneGateway gateway(BrokerProcesses brokers) {
    return StandaloneGateway.start(brokers.gatewayConfig(dir.resolve("gateway")));
  }

  private static CamundaClient client(StandaloneGateway gateway) {
    return CamundaClient.newClientBuilder()
        .grpcAddress(URI.create("http://127.0.0.1:" + gateway.port()))
        .preferRestOverGrpc(false)
        .defaultRequestTimeout(Duration.ofSeconds(15))
        .build();
  }

  private static int leaderOf(Topology topology, int partitionId) {
    return topology.getBrokers().stream()
        .filter(
            broker ->
                broker.getPartitions().stream()
                    .anyMatch(p -> p.getPartitionId() == partitionId && p.isLeader()))
        .mapToInt(broker -> broker.getNodeId())
        .findFirst()
        .orElseThrow(() -> new AssertionError("partition " + partitionId + " has no leader"));
  }

  private static HttpResponse<String> call(int port, String method, String path, String body)
      throws Exception {
    return ManagementCalls.send(
        port, method, path, body, TestBrokers.BEARER, Duration.ofSeconds(30));
  }

  private static void deleteRecursively(Path directory) throws Exception {
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
