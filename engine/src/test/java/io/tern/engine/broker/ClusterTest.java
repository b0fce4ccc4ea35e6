package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.ProcessInstanceResult;
import io.camunda.client.api.response.Topology;
import io.camunda.client.api.worker.JobWorker;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.cluster.PartitionDistribution;
import io.tern.engine.log.LogStorage;
import io.tern.engine.log.RaftLogStorage;
import io.tern.engine.partition.EnginePartition;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three brokers, three partitions, three replicas each, on loopback. */
@Tag("slow") // three-broker clusters through a standalone gateway: docs/testing.md
class ClusterTest {
  private static final Duration READY = Duration.ofSeconds(60);

  @TempDir Path dir;

  private static byte[] bpmn(BpmnModelInstance model) {
    return Bpmn.convertToString(model).getBytes(StandardCharsets.UTF_8);
  }

  private static final byte[] ONE_TASK =
      bpmn(
          Bpmn.createExecutableProcess("one-task")
              .startEvent()
              .serviceTask("task", t -> t.zeebeJobType("work"))
              .endEvent()
              .done());

  private static final byte[] WAIT_FOR_MESSAGE =
      bpmn(
          Bpmn.createExecutableProcess("wait")
              .startEvent()
              .intermediateCatchEvent("go")
              .message(m -> m.name("go").zeebeCorrelationKeyExpression("id"))
              .endEvent()
              .done());

  @Test
  void aStandaloneGatewayAndEveryEmbeddedOneServeTheWholeCluster() throws Exception {
    try (TestCluster cluster = new TestCluster(dir, 3, 3, 3).start();
        CamundaClient client = cluster.client()) {
      cluster.awaitReady(READY);
      assertThat(cluster.gateway().awaitLeaders(READY)).isTrue();
      HttpResponse<String> ready =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:"
                                  + cluster.gateway().managementPort()
                                  + "/actuator/health/readiness"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);

      Topology topology = client.newTopologyRequest().send().join();
      assertThat(topology.getBrokers()).hasSize(3);
      assertThat(topology.getPartitionsCount()).isEqualTo(3);
      for (var broker : topology.getBrokers()) {
        assertThat(broker.getPartitions()).hasSize(3);
      }
      for (int partitionId = 1; partitionId <= 3; partitionId++) {
        int id = partitionId;
        assertThat(
                topology.getBrokers().stream()
                    .flatMap(broker -> broker.getPartitions().stream())
                    .filter(p -> p.getPartitionId() == id && p.isLeader())
                    .count())
            .as("leaders of partition %d", id)
            .isEqualTo(1);
      }

      client
          .newDeployResourceCommand()
          .addResourceBytes(ONE_TASK, "one-task.bpmn")
          .addResourceBytes(WAIT_FOR_MESSAGE, "wait.bpmn")
          .send()
          .join();

      // Pushed jobs (the default, streaming worker) from every partition, whichever broker leads.
      Set<Integer> partitionsSeen = ConcurrentHashMap.newKeySet();
      try (JobWorker worker =
          client
              .newWorker()
              .jobType("work")
              .handler(
                  (jobClient, job) -> {
                    partitionsSeen.add(partitionOf(job.getKey()));
                    jobClient.newCompleteCommand(job).variables(Map.of("done", true)).send();
                  })
              .streamEnabled(true)
              .open()) {
        for (int i = 0; i < 6; i++) {
          assertThat(runOneTask(client).getVariablesAsMap()).containsEntry("done", true);
        }
      }
      assertThat(partitionsSeen).containsExactlyInAnyOrder(1, 2, 3);

      // A long-polling ActivateJobs waits at the gateway and is woken by a broker's notice.
      client
          .newDeployResourceCommand()
          .addResourceBytes(
              bpmn(
                  Bpmn.createExecutableProcess("late")
                      .startEvent()
                      .serviceTask("late-task", t -> t.zeebeJobType("late"))
                      .endEvent()
                      .done()),
              "late.bpmn")
          .send()
          .join();
      long askedNs = System.nanoTime();
      var waitingForJob =
          client
              .newActivateJobsCommand()
              .jobType("late")
              .maxJobsToActivate(1)
              .requestTimeout(Duration.ofSeconds(30))
              .send();
      TestBrokers.awaitParked(cluster.gateway().jobStreams(), "late");
      client.newCreateInstanceCommand().bpmnProcessId("late").latestVersion().send().join();
      assertThat(waitingForJob.join(30, TimeUnit.SECONDS).getJobs()).hasSize(1);
      assertThat(Duration.ofNanos(System.nanoTime() - askedNs))
          .as("woken by the notice, not by its 30 s timeout")
          .isLessThan(Duration.ofSeconds(10));

      // A worker's stream through the standalone gateway is opened on every broker, and closed on
      // every broker when the worker closes (else they would push it jobs that wait to be given
      // back). GET /actuator/jobstreams shows both sides.
      JobWorker watching =
          client
              .newWorker()
              .jobType("watched")
              .handler((jobs, job) -> {})
              .streamEnabled(true)
              .open();
      Awaitility.await("the stream opened on the gateway and every broker")
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(get(cluster.gateway().managementPort(), "/actuator/jobstreams"))
                    .contains("\"streams\":{\"watched\":1}");
                for (int i = 0; i < cluster.size(); i++) {
                  assertThat(get(cluster.broker(i).managementPort(), "/actuator/jobstreams"))
                      .as("broker %d", i)
                      .contains("\"remoteStreams\":{\"watched\":1}");
                }
              });
      watching.close();
      Awaitility.await("the stream closed on every broker")
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () -> {
                for (int i = 0; i < cluster.size(); i++) {
                  assertThat(get(cluster.broker(i).managementPort(), "/actuator/jobstreams"))
                      .as("broker %d", i)
                      .doesNotContain("watched");
                }
              });

      // Messages are routed by correlation key, instances by round robin: they meet across
      // partitions through the brokers' command APIs.
      List<CompletableFuture<ProcessInstanceResult>> waiting = new ArrayList<>();
      List<String> ids = List.of("a", "b", "c", "d", "e", "f");
      for (String id : ids) {
        waiting.add(
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("wait")
                .latestVersion()
                .variables(Map.of("id", id))
                .withResult()
                .requestTimeout(Duration.ofSeconds(30))
                .send()
                .toCompletableFuture());
      }
      // The subscriptions are opened on the messages' partitions before the messages come.
      Awaitility.await("the message subscriptions opened")
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  committedCount(cluster.broker(0), MessageSubscriptionIntent.CREATED)
                      >= ids.size());
      for (String id : ids) {
        client
            .newPublishMessageCommand()
            .messageName("go")
            .correlationKey(id)
            .timeToLive(Duration.ofMinutes(1))
            .send()
            .join();
      }
      for (CompletableFuture<ProcessInstanceResult> result : waiting) {
        assertThat(result.get(30, TimeUnit.SECONDS).getVariablesAsMap()).containsKey("id");
      }

      // Each broker's embedded gateway reaches the partitions it does not lead, with polling too.
      for (int nodeId = 0; nodeId < 3; nodeId++) {
        try (CamundaClient embedded = TestBrokers.client(cluster.broker(nodeId));
            JobWorker poller =
                embedded
                    .newWorker()
                    .jobType("work")
                    .handler((jobClient, job) -> jobClient.newCompleteCommand(job).send())
                    .streamEnabled(false)
                    .pollInterval(Duration.ofMillis(50))
                    .open()) {
          for (int i = 0; i < 3; i++) {
            runOneTask(embedded);
          }
        }
      }
    }
  }

  @Test
  void killingALeaderLosesNoAcknowledgedInstanceAndRebalancingRestoresThePrimaries()
      throws Exception {
    try (TestCluster cluster = new TestCluster(dir, 3, 3, 3).start();
        CamundaClient client = cluster.client()) {
      cluster.awaitReady(READY);
      assertThat(cluster.gateway().awaitLeaders(READY)).isTrue();
      try (InstanceTracker instances = new InstanceTracker(client)) {
        int victim = cluster.leaderOf(1);
        instances.create(60);
        cluster.stop(victim);
        instances.create(60);
        assertThat(instances.acknowledgedCount()).isGreaterThan(60);
        instances.assertEveryAcknowledgedInstanceCompleted(Duration.ofSeconds(60));
        instances.assertNoCreateRanTwice(Duration.ofSeconds(60));
        cluster.startBroker(victim);
        cluster.awaitReady(READY);
      }

      // Leadership moved off the stopped broker; rebalancing brings each partition to its primary.
      String outcome = rebalance(cluster.broker(0));
      assertThat(outcome).contains("\"1\"", "\"2\"", "\"3\"");
      List<String> outcomes = new ArrayList<>(List.of(outcome)); // the latest
      try {
        Awaitility.await()
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(200))
            .until(
                () -> {
                  if (ledByPrimaries(cluster)) {
                    return true;
                  }
                  // a transfer can lose to an election; rebalancing is idempotent
                  outcomes.set(0, rebalance(cluster.broker(0)));
                  return false;
                });
      } catch (ConditionTimeoutException e) {
        // the assertions below name the partitions and what rebalancing said
      }
      for (int partitionId = 1; partitionId <= 3; partitionId++) {
        assertThat(cluster.leaderOf(partitionId))
            .as(
                "leader of partition %d after rebalancing said %s; replicas: %s",
                partitionId, outcomes, replicas(cluster))
            .isEqualTo(PartitionDistribution.primaryOf(partitionId, 3));
      }
      // Any broker answers for the whole cluster once it is connected to the others again.
      String expected =
          "{\"1\":\"already led by its primary, node 0\",\"2\":\"already led by its primary,"
              + " node 1\",\"3\":\"already led by its primary, node 2\"}";
      Awaitility.await()
          .atMost(Duration.ofSeconds(5))
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(100))
          .untilAsserted(() -> assertThat(rebalance(cluster.broker(2))).isEqualTo(expected));
    }
  }

  private static String replicas(TestCluster cluster) {
    StringBuilder text = new StringBuilder();
    for (int nodeId = 0; nodeId < cluster.size(); nodeId++) {
      for (var partition : cluster.broker(nodeId).partitions()) {
        var raft = partition.raft();
        text.append(
            String.format(
                "%n node %d p%d %s term %d leader %d last %d commit %d phase %s",
                nodeId,
                partition.partitionId(),
                raft.role(),
                raft.term(),
                raft.leaderId(),
                raft.lastIndex(),
                raft.commitIndex(),
                partition.processor().phase()));
      }
    }
    return text.toString();
  }

  /** Runs an instance of the one-task process to its end; its result. */
  private static ProcessInstanceResult runOneTask(CamundaClient client) {
    return client
        .newCreateInstanceCommand()
        .bpmnProcessId("one-task")
        .latestVersion()
        .withResult()
        .send()
        .join(20, TimeUnit.SECONDS);
  }

  /** How many committed events of that type and intent the partitions of {@code broker} hold. */
  private static int committedCount(Broker broker, Intent intent) {
    int count = 0;
    RecordBatch batch = new RecordBatch();
    for (EnginePartition partition : broker.partitions()) {
      RaftLogStorage log = new RaftLogStorage();
      log.bind(partition.raft());
      try (LogStorage.Reader reader = log.newReader()) {
        reader.seekToIndex(0);
        while (reader.hasNext()) {
          LogStorage.Entry entry = reader.next();
          batch.wrap(entry.data(), entry.offset(), entry.length());
          while (batch.hasNext()) {
            LoggedRecord record = batch.next();
            if (record.intent() == intent && record.isEvent()) {
              count++;
            }
          }
        }
      }
    }
    return count;
  }

  private static boolean ledByPrimaries(TestCluster cluster) {
    for (int partitionId = 1; partitionId <= 3; partitionId++) {
      if (cluster.leaderOf(partitionId) != PartitionDistribution.primaryOf(partitionId, 3)) {
        return false;
      }
    }
    return true;
  }

  private static String rebalance(Broker broker) throws Exception {
    return rebalance(broker.managementPort());
  }

  static String rebalance(int managementPort) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + managementPort + "/actuator/rebalance"))
                    .header("Authorization", TestBrokers.BEARER)
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  private static String get(int managementPort, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private static int partitionOf(long key) {
    return io.tern.engine.record.Keys.partitionOf(key);
  }
}
