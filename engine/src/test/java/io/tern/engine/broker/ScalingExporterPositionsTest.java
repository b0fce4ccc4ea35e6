package io.tern.engine.broker;

import static io.tern.engine.broker.ClusterScalingTest.awaitCompleted;
import static io.tern.engine.broker.ClusterScalingTest.change;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.camunda.client.CamundaClient;
import io.camunda.zeebe.exporter.api.Exporter;
import io.camunda.zeebe.exporter.api.context.Context;
import io.camunda.zeebe.exporter.api.context.Controller;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.intent.ProcessInstanceIntent;
import io.camunda.zeebe.protocol.record.value.BpmnElementType;
import io.camunda.zeebe.protocol.record.value.ProcessInstanceRecordValue;
import io.tern.engine.partition.EnginePartition;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition moved to a new broker keeps its exporters' positions (issue 52): the new broker gets
 * them with the leader's snapshot and the log after it, and its exporter, once it leads, starts
 * after what the old leader's exporter acknowledged.
 */
@Tag("slow") // several brokers moving replicas: docs/testing.md
class ScalingExporterPositionsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void theNewBrokersExporterStartsAfterThePositionAcknowledgedBeforeTheMove() throws Exception {
    Map<String, String> settings =
        Map.of(
            "TERN_EXPORTERS_REC_CLASSNAME", Recorder.class.getName(),
            // The joining replica lags the snapshot taken below by more than this many entries:
            // it is sent the snapshot, though the log still holds them.
            "TERN_RAFT_PREFERSNAPSHOTREPLICATIONTHRESHOLD", "10",
            "TERN_EXPORTING_POSITIONWRITEINTERVAL", "100ms");
    TestCluster cluster = new TestCluster(dir, 2, 1, 2, settings, 1);
    for (int node = 0; node < 3; node++) {
      cluster.nodeSettings(node, Map.of("TERN_EXPORTERS_REC_ARGS_BROKER", Integer.toString(node)));
    }
    try (cluster;
        CamundaClient client = cluster.start().client()) {
      cluster.awaitReady(Duration.ofSeconds(90));
      cluster.startBroker(2);
      client
          .newDeployResourceCommand()
          .addProcessModel(
              Bpmn.createExecutableProcess("p").startEvent().endEvent().done(), "p.bpmn")
          .send()
          .join();
      long filled = createInstances(client, 20, "").get(19);
      int oldLeader = cluster.leaderOf(1);
      long filledEnd = awaitCompletedExport(oldLeader, filled);
      Awaitility.await("the old leader stored the position of the last instance's end")
          .atMost(WAIT)
          .until(() -> storedPosition(cluster, oldLeader) >= filledEnd);
      HttpResponse<String> snapshot =
          ManagementCalls.send(
              cluster.broker(oldLeader).managementPort(),
              "POST",
              "/actuator/partitions/takeSnapshot",
              null,
              TestBrokers.BEARER,
              Duration.ofSeconds(30));
      assertThat(snapshot.statusCode()).as(snapshot.body()).isEqualTo(200);
      // Exported and acknowledged after the snapshot: these stay in the log the new broker gets
      // after the snapshot, and an exporter started from the log's start would export them again.
      long exportedAfterSnapshot = createInstances(client, 3, "").get(2);
      long exportedEnd = awaitCompletedExport(oldLeader, exportedAfterSnapshot);
      Awaitility.await("the old leader stored the position of the instances after the snapshot")
          .atMost(WAIT)
          .until(() -> storedPosition(cluster, oldLeader) >= exportedEnd);
      long storedBeforeMove = storedPosition(cluster, oldLeader);

      // Replication factor 1 on broker 2 alone: it joins, the others leave, and the leader
      // leaving hands its leadership over to broker 2.
      JsonNode planned = change(cluster, 0, "/actuator/cluster/brokers?replicationFactor=1", "[2]");
      awaitCompleted(cluster, 0, planned.get("changeId").asLong());
      Awaitility.await("broker 2 leads the partition")
          .atMost(WAIT)
          .until(() -> cluster.leaderOf(1) == 2);
      assertThat(partition(cluster, 2).raft().journal().getFirstIndex())
          .as("broker 2 started from the leader's snapshot, not from the log's first entry")
          .isGreaterThan(1);
      assertThat(storedPosition(cluster, 2))
          .as("the position broker 2 has from the snapshot and the log, before it exports")
          .isGreaterThanOrEqualTo(storedBeforeMove);

      List<Long> after = createInstances(client, 3, "");
      awaitCompletedExport(2, after.get(2));
      List<Exported> exported = Recorder.journal(2);
      assertThat(exported.get(0).position())
          .as("broker 2's exporter starts after the position stored before the move")
          .isGreaterThan(storedBeforeMove);
      assertThat(exported.stream().map(Exported::position))
          .as("broker 2 exports each record once")
          .doesNotHaveDuplicates();
      for (long key : after) {
        assertThat(exported.stream().filter(e -> e.processCompleted() == key))
            .as("instance %d created after the move, exported once", key)
            .hasSize(1);
      }
      JsonNode shown = exporters(cluster, 2).get("1").get("exporters").get("rec");
      assertThat(shown.get("position").asLong()).isGreaterThanOrEqualTo(storedBeforeMove);
    }
  }

  private static List<Long> createInstances(CamundaClient client, int count, String variable) {
    List<Long> keys = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      keys.add(
          client
              .newCreateInstanceCommand()
              .bpmnProcessId("p")
              .latestVersion()
              .variables(Map.of("v", variable))
              .send()
              .join()
              .getProcessInstanceKey());
    }
    return keys;
  }

  /** Waits until broker {@code node}'s exporter exported the end of instance {@code key}. */
  private static long awaitCompletedExport(int node, long key) {
    return Awaitility.await("broker " + node + " exported the end of instance " + key)
        .atMost(WAIT)
        .until(
            () ->
                Recorder.journal(node).stream()
                    .filter(e -> e.processCompleted() == key)
                    .mapToLong(Exported::position)
                    .findFirst()
                    .orElse(-1),
            position -> position > 0);
  }

  private static EnginePartition partition(TestCluster cluster, int node) {
    return cluster.broker(node).partitions().get(0);
  }

  private static JsonNode exporters(TestCluster cluster, int node) throws Exception {
    HttpResponse<String> answer =
        ManagementCalls.send(
            cluster.broker(node).managementPort(),
            "GET",
            "/actuator/exporters",
            null,
            TestBrokers.BEARER,
            Duration.ofSeconds(10));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return JSON.readTree(answer.body());
  }

  private static long storedPosition(TestCluster cluster, int node) throws Exception {
    JsonNode partition = exporters(cluster, node).get("1");
    return partition == null
        ? -1
        : partition.get("exporters").get("rec").get("storedPosition").asLong();
  }

  /** A record exported; {@code processCompleted}: the key of the instance it ends, or -1. */
  record Exported(long position, long processCompleted) {}

  /**
   * Records what it exports per broker (arg {@code broker}) and acknowledges each record at once.
   */
  public static final class Recorder implements Exporter {
    private static final Map<Integer, List<Exported>> JOURNALS = new ConcurrentHashMap<>();

    static List<Exported> journal(int broker) {
      return JOURNALS.computeIfAbsent(broker, b -> new CopyOnWriteArrayList<>());
    }

    private List<Exported> journal;
    private Controller controller;

    @Override
    public void configure(Context context) {
      Object broker = context.getConfiguration().getArguments().get("broker");
      journal = journal(Integer.parseInt(String.valueOf(broker)));
    }

    @Override
    public void open(Controller controller) {
      this.controller = controller;
    }

    @Override
    public void export(Record<?> record) {
      long completed = -1;
      if (record.getValueType() == ValueType.PROCESS_INSTANCE
          && record.getIntent() == ProcessInstanceIntent.ELEMENT_COMPLETED
          && record.getValue() instanceof ProcessInstanceRecordValue value
          && value.getBpmnElementType() == BpmnElementType.PROCESS) {
        completed = record.getKey();
      }
      journal.add(new Exported(record.getPosition(), completed));
      controller.updateLastExportedRecordPosition(record.getPosition());
    }
  }
}
