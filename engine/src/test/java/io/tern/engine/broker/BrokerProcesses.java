package io.tern.engine.broker;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Brokers as real processes ({@link BrokerProcess}) on loopback, so that a test can kill one with
 * SIGKILL: no shutdown hook, no flush, no goodbye to its peers. Each logs to {@code broker-N.log}
 * under the directory; their embedded gateways are off (tests use a standalone one).
 */
final class BrokerProcesses implements AutoCloseable {
  private final Path dir;
  private final int partitions;
  private final int replication;
  private final int[] commandPorts;
  private final int[] internalPorts;
  private final int[] managementPorts;
  private final Process[] processes;
  private final Map<String, String> extraSettings;
  private final int clusterSize;

  /** {@code extraSettings}: environment settings every broker gets besides the cluster's. */
  BrokerProcesses(
      Path dir, int size, int partitions, int replication, Map<String, String> extraSettings) {
    this.clusterSize = size;
    this.dir = dir;
    this.extraSettings = Map.copyOf(extraSettings);
    this.partitions = partitions;
    this.replication = replication;
    this.commandPorts = new int[size];
    this.internalPorts = new int[size];
    this.managementPorts = new int[size];
    this.processes = new Process[size];
    int[] ports = BrokerProcess.freePorts(3 * size);
    for (int node = 0; node < size; node++) {
      commandPorts[node] = ports[3 * node];
      internalPorts[node] = ports[3 * node + 1];
      managementPorts[node] = ports[3 * node + 2];
    }
  }

  String contactPoints() {
    return Arrays.stream(commandPorts, 0, clusterSize)
        .mapToObj(port -> "127.0.0.1:" + port)
        .collect(Collectors.joining(","));
  }

  /** A standalone gateway's configuration for this cluster, its data under {@code dir}. */
  BrokerConfig gatewayConfig(Path dir) {
    return TestBrokers.config(
        dir,
        Map.of(
            "TERN_CLUSTER_CLUSTERSIZE", Integer.toString(clusterSize),
            "TERN_CLUSTER_PARTITIONSCOUNT", Integer.toString(partitions),
            "TERN_CLUSTER_REPLICATIONFACTOR", Integer.toString(replication),
            "TERN_CLUSTER_CONTACTPOINTS", contactPoints()));
  }

  /** Starts (or restarts, on its data) broker {@code node}. */
  void start(int node) throws IOException {
    processes[node] = BrokerProcess.start(settings(node), log(node), "-Xmx256m");
  }

  /** The environment broker {@code node} runs with (also what bin/restore needs for it). */
  Map<String, String> settings(int node) {
    Map<String, String> settings = new HashMap<>();
    settings.put("TERN_CLUSTER_NODEID", Integer.toString(node));
    settings.put("TERN_CLUSTER_CLUSTERSIZE", Integer.toString(clusterSize));
    settings.put("TERN_CLUSTER_PARTITIONSCOUNT", Integer.toString(partitions));
    settings.put("TERN_CLUSTER_REPLICATIONFACTOR", Integer.toString(replication));
    settings.put("TERN_CLUSTER_CONTACTPOINTS", contactPoints());
    settings.put("TERN_NETWORK_HOST", "127.0.0.1");
    settings.put("TERN_NETWORK_ADVERTISEDHOST", "127.0.0.1");
    settings.put("TERN_NETWORK_COMMANDPORT", Integer.toString(commandPorts[node]));
    settings.put("TERN_NETWORK_INTERNALPORT", Integer.toString(internalPorts[node]));
    settings.put("TERN_GATEWAY_ENABLE", "false");
    settings.put("TERN_MANAGEMENT_PORT", Integer.toString(managementPorts[node]));
    settings.put("TERN_DATA_DIRECTORY", dir.resolve("broker-" + node).toString());
    settings.put("TERN_DATA_DISK_MINFREEBYTES", "0");
    settings.put("TERN_RAFT_ELECTIONTIMEOUTMS", "500");
    settings.put("TERN_RAFT_HEARTBEATINTERVALMS", "50");
    settings.put("TERN_MANAGEMENT_SECURITY_TOKEN", TestBrokers.MANAGEMENT_TOKEN);
    settings.putAll(extraSettings);
    return settings;
  }

  /** SIGKILL: the broker stops dead. */
  void kill(int node) throws InterruptedException {
    processes[node].destroyForcibly().waitFor();
  }

  int managementPort(int node) {
    return managementPorts[node];
  }

  void awaitReady(int node, Duration timeout) throws InterruptedException {
    BrokerProcess.awaitReady(processes[node], managementPorts[node], log(node), timeout);
  }

  private Path log(int node) {
    return dir.resolve("broker-" + node + ".log");
  }

  @Override
  public void close() throws InterruptedException {
    for (Process process : processes) {
      if (process != null) {
        process.destroy();
      }
    }
    for (Process process : processes) {
      if (process != null && !process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
