package io.tern.engine.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Brokers as real processes (this JVM's java and class path) on loopback, so that a test can kill
 * one with SIGKILL: no shutdown hook, no flush, no goodbye to its peers. Each logs to {@code
 * broker-N.log} under the directory.
 */
final class BrokerProcesses implements AutoCloseable {
  private final Path dir;
  private final int partitions;
  private final int replication;
  private final int[] commandPorts;
  private final int[] internalPorts;
  private final int[] managementPorts;
  private final Process[] processes;

  BrokerProcesses(Path dir, int size, int partitions, int replication) {
    this.dir = dir;
    this.partitions = partitions;
    this.replication = replication;
    this.commandPorts = new int[size];
    this.internalPorts = new int[size];
    this.managementPorts = new int[size];
    this.processes = new Process[size];
    for (int node = 0; node < size; node++) {
      commandPorts[node] = freePort();
      internalPorts[node] = freePort();
      managementPorts[node] = freePort();
    }
  }

  String contactPoints() {
    return Arrays.stream(commandPorts)
        .mapToObj(port -> "127.0.0.1:" + port)
        .collect(Collectors.joining(","));
  }

  /** Starts (or restarts, on its data) broker {@code node}. */
  void start(int node) throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(
            ProcessHandle.current().info().command().orElse("java"),
            "--add-exports",
            "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-Xmx256m",
            "-cp",
            System.getProperty("java.class.path"),
            BrokerMain.class.getName());
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(key -> key.startsWith("TERN_"));
    env.put("TERN_CLUSTER_NODEID", Integer.toString(node));
    env.put("TERN_CLUSTER_CLUSTERSIZE", Integer.toString(processes.length));
    env.put("TERN_CLUSTER_PARTITIONSCOUNT", Integer.toString(partitions));
    env.put("TERN_CLUSTER_REPLICATIONFACTOR", Integer.toString(replication));
    env.put("TERN_CLUSTER_CONTACTPOINTS", contactPoints());
    env.put("TERN_NETWORK_HOST", "127.0.0.1");
    env.put("TERN_NETWORK_ADVERTISEDHOST", "127.0.0.1");
    env.put("TERN_NETWORK_COMMANDPORT", Integer.toString(commandPorts[node]));
    env.put("TERN_NETWORK_INTERNALPORT", Integer.toString(internalPorts[node]));
    env.put("TERN_GATEWAY_ENABLE", "false");
    env.put("TERN_MANAGEMENT_PORT", Integer.toString(managementPorts[node]));
    env.put("TERN_DATA_DIRECTORY", dir.resolve("broker-" + node).toString());
    env.put("TERN_DATA_DISK_MINFREEBYTES", "0");
    env.put("TERN_RAFT_ELECTIONTIMEOUTMS", "500");
    env.put("TERN_RAFT_HEARTBEATINTERVALMS", "50");
    Files.createDirectories(dir);
    builder
        .redirectErrorStream(true)
        .redirectOutput(
            ProcessBuilder.Redirect.appendTo(dir.resolve("broker-" + node + ".log").toFile()));
    processes[node] = builder.start();
  }

  /** SIGKILL: the broker stops dead. */
  void kill(int node) throws InterruptedException {
    processes[node].destroyForcibly().waitFor();
  }

  int managementPort(int node) {
    return managementPorts[node];
  }

  /** Waits until broker {@code node} answers ready. */
  void awaitReady(int node, Duration timeout) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    URI readiness =
        URI.create("http://127.0.0.1:" + managementPorts[node] + "/actuator/health/readiness");
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      if (!processes[node].isAlive()) {
        throw new AssertionError("broker " + node + " exited; see " + log(node));
      }
      try {
        HttpResponse<String> answer =
            http.send(
                HttpRequest.newBuilder(readiness).build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() == 200) {
          return;
        }
        last = answer.body();
      } catch (IOException notListeningYet) {
        last = notListeningYet.toString();
      }
      Thread.sleep(100);
    }
    throw new AssertionError("broker " + node + " not ready: " + last + "; see " + log(node));
  }

  Path log(int node) {
    return dir.resolve("broker-" + node + ".log");
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    for (Process process : processes) {
      if (process != null) {
        process.destroy();
      }
    }
    for (Process process : processes) {
      if (process != null && !process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
