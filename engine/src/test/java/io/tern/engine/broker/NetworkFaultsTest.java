package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.cluster.PartitionDistribution;
import io.tern.raft.RaftMessage;
import io.tern.raft.transport.MessageReceiver;
import io.tern.raft.transport.RaftTransport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run-time network partition of {@code experimental.faultInjection.enabled}: off by default
 * (the endpoints answer 404 and Raft gets the plain transport), on it drops the messages to the
 * isolated nodes and delays those to the slow ones until healed, and refuses node ids that are not
 * other brokers and delays out of range.
 */
class NetworkFaultsTest {
  @TempDir Path dir;

  /** Remembers to whom each message went. */
  private static final class Sent implements RaftTransport {
    final List<Integer> to = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public boolean send(int partitionId, RaftMessage message) {
      to.add(message.to());
      return true;
    }

    @Override
    public void setReceiver(MessageReceiver receiver) {}

    @Override
    public int localMemberId() {
      return PartitionDistribution.memberIdOf(0);
    }

    @Override
    public void close() {}
  }

  private BrokerConfig config(boolean enabled) {
    return TestBrokers.config(
        dir,
        Map.of(
            "TERN_CLUSTER_CLUSTERSIZE", "3",
            "TERN_CLUSTER_CONTACTPOINTS", "127.0.0.1:1,127.0.0.1:2,127.0.0.1:3",
            "TERN_EXPERIMENTAL_FAULTINJECTION_ENABLED", Boolean.toString(enabled)));
  }

  private static void sendToEveryNode(RaftTransport transport) {
    for (int node = 1; node <= 2; node++) {
      int member = PartitionDistribution.memberIdOf(node);
      transport.send(1, new RaftMessage.TimeoutNow(PartitionDistribution.memberIdOf(0), member, 1));
    }
  }

  @Test
  void offByDefaultTheEndpointsAreNotFoundAndRaftKeepsItsTransport() {
    NetworkFaults faults = NetworkFaults.wrap(config(false), new Sent());

    assertThat(faults.transport()).isNull();
    ManagementApi.Answer answer = faults.handle("POST", "/actuator/faults/isolate/1").join();
    assertThat(answer.status()).isEqualTo(404);
    assertThat(answer.body()).contains("experimental.faultInjection.enabled");
  }

  @Test
  void isolatedNodesGetNoMessageUntilHealed() {
    Sent sent = new Sent();
    NetworkFaults faults = NetworkFaults.wrap(config(true), sent);

    ManagementApi.Answer isolated = faults.handle("POST", "/actuator/faults/isolate/2").join();
    sendToEveryNode(faults.transport());

    assertThat(isolated.status()).isEqualTo(200);
    assertThat(isolated.body()).isEqualTo("{\"isolatedFrom\":[2],\"delayMsTo\":{}}");
    assertThat(sent.to).containsExactly(PartitionDistribution.memberIdOf(1));

    ManagementApi.Answer healed = faults.handle("POST", "/actuator/faults/heal").join();
    sendToEveryNode(faults.transport());

    assertThat(healed.body()).isEqualTo("{\"isolatedFrom\":[],\"delayMsTo\":{}}");
    assertThat(sent.to)
        .containsExactly(
            PartitionDistribution.memberIdOf(1),
            PartitionDistribution.memberIdOf(1),
            PartitionDistribution.memberIdOf(2));
  }

  @Test
  void delayedNodesGetTheirMessagesLateUntilHealed() {
    Sent sent = new Sent();
    NetworkFaults faults = NetworkFaults.wrap(config(true), sent);

    ManagementApi.Answer delayed = faults.handle("POST", "/actuator/faults/delay/2/300").join();
    long sentNs = System.nanoTime();
    sendToEveryNode(faults.transport());

    assertThat(delayed.status()).isEqualTo(200);
    assertThat(delayed.body()).isEqualTo("{\"isolatedFrom\":[],\"delayMsTo\":{\"2\":300}}");
    assertThat(sent.to).containsExactly(PartitionDistribution.memberIdOf(1));
    Awaitility.await("the delayed message")
        .atMost(Duration.ofSeconds(10))
        .until(() -> sent.to.size() == 2);
    assertThat(System.nanoTime() - sentNs).isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
    assertThat(sent.to.get(1)).isEqualTo(PartitionDistribution.memberIdOf(2));

    faults.handle("POST", "/actuator/faults/heal").join();
    sendToEveryNode(faults.transport());
    assertThat(sent.to).hasSize(4); // both at once again
  }

  @Test
  void aNodeThatIsNotAnotherBrokerIsRefusedByName() {
    NetworkFaults faults = NetworkFaults.wrap(config(true), new Sent());

    for (String nodes : List.of("0", "3", "-1", "x")) {
      ManagementApi.Answer answer =
          faults.handle("POST", "/actuator/faults/isolate/" + nodes).join();
      assertThat(answer.status()).as(nodes).isEqualTo(400);
      assertThat(answer.body()).as(nodes).contains(nodes.equals("x") ? "'x'" : "node " + nodes);
    }
    assertThat(faults.handle("GET", "/actuator/faults/heal").join().status()).isEqualTo(405);
    assertThat(faults.handle("POST", "/actuator/faults/drop").join().status()).isEqualTo(404);
    for (String bad : List.of("delay/1", "delay/1/0", "delay/1/x", "delay/1/10001", "delay/0/5")) {
      ManagementApi.Answer answer = faults.handle("POST", "/actuator/faults/" + bad).join();
      assertThat(answer.status()).as(bad).isEqualTo(400);
    }
  }
}
