package io.tern.engine.broker;

import io.camunda.client.CamundaClient;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A cluster of brokers on loopback for tests: each broker's command port is chosen up front (the
 * contact points name them), everything else by the system.
 */
final class TestCluster implements AutoCloseable {
  private final Path dir;
  private final int clusterSize;
  private final int partitionsCount;
  private final int replicationFactor;
  private final int[] commandPorts;
  private final Broker[] brokers;
  private final Map<String, String> extraSettings;
  private final Map<Integer, Map<String, String>> nodeSettings = new HashMap<>();
  private StandaloneGateway gateway;

  TestCluster(Path dir, int clusterSize, int partitionsCount, int replicationFactor) {
    this(dir, clusterSize, partitionsCount, replicationFactor, Map.of());
  }

  /** {@code extraSettings}: TERN_* settings every broker gets on top of the test defaults. */
  TestCluster(
      Path dir,
      int clusterSize,
      int partitionsCount,
      int replicationFactor,
      Map<String, String> extraSettings) {
    this(dir, clusterSize, partitionsCount, replicationFactor, extraSettings, 0);
  }

  /**
   * With {@code spares} more brokers (node ids from {@code clusterSize} on), configured with the
   * same cluster size and contact points: brokers to add to the running cluster. They are started
   * only by {@link #startBroker}.
   */
  TestCluster(
      Path dir,
      int clusterSize,
      int partitionsCount,
      int replicationFactor,
      Map<String, String> extraSettings,
      int spares) {
    this.extraSettings = Map.copyOf(extraSettings);
    this.dir = dir;
    this.clusterSize = clusterSize;
    this.partitionsCount = partitionsCount;
    this.replicationFactor = replicationFactor;
    this.commandPorts = new int[clusterSize + spares];
    this.brokers = new Broker[clusterSize + spares];
    int[] ports = BrokerProcess.freePorts(clusterSize + spares);
    System.arraycopy(ports, 0, commandPorts, 0, clusterSize + spares);
  }

  /** Starts every broker (in parallel: each waits for the others' votes). */
  TestCluster start() {
    return start(java.util.stream.IntStream.range(0, clusterSize).toArray());
  }

  /** Starts these brokers (in parallel); the others stay down until {@link #startBroker}. */
  TestCluster start(int... nodeIds) {
    List<Thread> starting = new ArrayList<>();
    for (int id : nodeIds) {
      Thread thread = new Thread(() -> startBroker(id));
      thread.start();
      starting.add(thread);
    }
    for (Thread thread : starting) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return this;
  }

  /** Starts (or restarts, on the same data) broker {@code nodeId}. */
  Broker startBroker(int nodeId) {
    Broker broker = Broker.start(config(nodeId));
    brokers[nodeId] = broker;
    return broker;
  }

  BrokerConfig config(int nodeId) {
    Map<String, String> settings = new HashMap<>();
    settings.put("TERN_CLUSTER_NODEID", Integer.toString(nodeId));
    settings.put("TERN_CLUSTER_CLUSTERSIZE", Integer.toString(clusterSize));
    settings.put("TERN_CLUSTER_PARTITIONSCOUNT", Integer.toString(partitionsCount));
    settings.put("TERN_CLUSTER_REPLICATIONFACTOR", Integer.toString(replicationFactor));
    settings.put("TERN_CLUSTER_CONTACTPOINTS", contactPoints());
    settings.put("TERN_NETWORK_COMMANDPORT", Integer.toString(commandPorts[nodeId]));
    settings.put("TERN_NETWORK_ADVERTISEDHOST", "127.0.0.1");
    settings.putAll(extraSettings);
    settings.putAll(nodeSettings.getOrDefault(nodeId, Map.of()));
    return TestBrokers.config(dir.resolve("broker-" + nodeId), settings);
  }

  /** TERN_* settings broker {@code nodeId} gets on top of everyone's; before it starts. */
  TestCluster nodeSettings(int nodeId, Map<String, String> settings) {
    nodeSettings.put(nodeId, Map.copyOf(settings));
    return this;
  }

  /** The command port that broker {@code nodeId} has (or will have) in the contact points. */
  int commandPort(int nodeId) {
    return commandPorts[nodeId];
  }

  String contactPoints() {
    return java.util.Arrays.stream(commandPorts, 0, clusterSize)
        .mapToObj(port -> "127.0.0.1:" + port)
        .collect(Collectors.joining(","));
  }

  /** A standalone gateway in front of the cluster. */
  StandaloneGateway gateway() {
    if (gateway == null) {
      gateway = StandaloneGateway.start(config(0));
    }
    return gateway;
  }

  CamundaClient client() {
    return CamundaClient.newClientBuilder()
        .grpcAddress(URI.create("http://127.0.0.1:" + gateway().port()))
        .preferRestOverGrpc(false)
        .defaultRequestTimeout(Duration.ofSeconds(15))
        .build();
  }

  Broker broker(int nodeId) {
    return brokers[nodeId];
  }

  int size() {
    return brokers.length;
  }

  /** Stops broker {@code nodeId}. */
  void stop(int nodeId) {
    brokers[nodeId].close();
    brokers[nodeId] = null;
  }

  /** The node that leads {@code partitionId} now, or -1. */
  int leaderOf(int partitionId) {
    for (Broker broker : brokers) {
      if (broker == null) {
        continue;
      }
      for (var partition : broker.partitions()) {
        if (partition.partitionId() == partitionId
            && partition.raft().role() == io.tern.raft.RaftRole.LEADER
            && partition.processor().phase()
                == io.tern.engine.processor.ProcessorPhase.PROCESSING) {
          return broker.config().nodeId();
        }
      }
    }
    return -1;
  }

  /** Waits until every running broker is ready and every partition has a processing leader. */
  void awaitReady(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Broker broker : brokers) {
      if (broker != null
          && !broker.awaitReady(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())))) {
        throw new AssertionError(
            "broker " + broker.config().nodeId() + " not ready; partitions: " + describe());
      }
    }
    for (int partitionId = 1; partitionId <= partitionsCount; partitionId++) {
      int partition = partitionId;
      try {
        Awaitility.await()
            .atMost(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())))
            .pollDelay(Duration.ZERO)
            .pollInterval(Duration.ofMillis(10))
            .until(() -> leaderOf(partition) >= 0);
      } catch (ConditionTimeoutException e) {
        throw new AssertionError(
            "partition " + partitionId + " has no processing leader; partitions: " + describe(), e);
      }
    }
  }

  /** Each running broker's partitions: role, term, known leader, processor phase. */
  private String describe() {
    StringBuilder text = new StringBuilder();
    for (Broker broker : brokers) {
      if (broker == null) {
        continue;
      }
      for (var partition : broker.partitions()) {
        var raft = partition.raft();
        text.append(
            String.format(
                "%n  broker %d partition %d: %s term %d leader %d, commit %d, processor %s%s",
                broker.config().nodeId(),
                partition.partitionId(),
                raft.role(),
                raft.term(),
                raft.leaderId(),
                raft.commitIndex(),
                partition.processor().phase(),
                raft.failure() == null ? "" : ", failed: " + raft.failure()));
      }
    }
    return text.toString();
  }

  @Override
  public void close() {
    if (gateway != null) {
      gateway.close();
    }
    for (int nodeId = 0; nodeId < brokers.length; nodeId++) {
      if (brokers[nodeId] != null) {
        brokers[nodeId].close();
      }
    }
  }
}
