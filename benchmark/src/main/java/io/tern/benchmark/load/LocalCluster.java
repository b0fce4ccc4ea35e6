package io.tern.benchmark.load;

import io.tern.benchmark.common.Progress;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A Tern cluster on loopback, one broker process per node (the JVM and class path of this one), so
 * that brokers do not share a heap or a garbage collector, as on separate machines. Each broker
 * logs to {@code broker-N.log} in the cluster's directory. The gateway of node 0 serves clients.
 */
final class LocalCluster implements AutoCloseable {
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);

  private final List<Process> brokers = new ArrayList<>();
  private final int[] gatewayPorts;
  private final int[] managementPorts;

  private LocalCluster(int size) {
    this.gatewayPorts = new int[size];
    this.managementPorts = new int[size];
  }

  /**
   * Starts {@code size} brokers with {@code partitions} partitions of {@code replication} replicas
   * each, data under {@code dir}, and waits until every broker is ready.
   */
  static LocalCluster start(
      int size, int partitions, int replication, String flushMode, Path dir, Progress progress)
      throws IOException, InterruptedException {
    LocalCluster cluster = new LocalCluster(size);
    try {
      cluster.launch(size, partitions, replication, flushMode, dir);
      cluster.awaitReady(progress);
    } catch (IOException | InterruptedException | RuntimeException e) {
      cluster.close();
      throw e;
    }
    progress.log(
        "local cluster ready: %d brokers, %d partitions, replication %d, raft.flush.mode %s, logs"
            + " and data under %s",
        size, partitions, replication, flushMode, dir);
    return cluster;
  }

  private void launch(int size, int partitions, int replication, String flushMode, Path dir)
      throws IOException {
    int[] commandPorts = new int[size];
    for (int node = 0; node < size; node++) {
      commandPorts[node] = freePort();
      gatewayPorts[node] = freePort();
      managementPorts[node] = freePort();
    }
    String contactPoints =
        java.util.Arrays.stream(commandPorts)
            .mapToObj(port -> "127.0.0.1:" + port)
            .collect(Collectors.joining(","));
    String java = ProcessHandle.current().info().command().orElse("java");
    String classPath = System.getProperty("java.class.path");
    for (int node = 0; node < size; node++) {
      ProcessBuilder builder =
          new ProcessBuilder(
              java,
              "--add-exports",
              "java.base/jdk.internal.misc=ALL-UNNAMED",
              "-cp",
              classPath,
              "io.tern.engine.broker.BrokerMain");
      Map<String, String> env = builder.environment();
      env.keySet().removeIf(key -> key.startsWith("TERN_"));
      env.put("TERN_CLUSTER_NODEID", Integer.toString(node));
      env.put("TERN_CLUSTER_CLUSTERSIZE", Integer.toString(size));
      env.put("TERN_CLUSTER_PARTITIONSCOUNT", Integer.toString(partitions));
      env.put("TERN_CLUSTER_REPLICATIONFACTOR", Integer.toString(replication));
      env.put("TERN_CLUSTER_CONTACTPOINTS", contactPoints);
      env.put("TERN_NETWORK_HOST", "127.0.0.1");
      env.put("TERN_NETWORK_ADVERTISEDHOST", "127.0.0.1");
      env.put("TERN_NETWORK_COMMANDPORT", Integer.toString(commandPorts[node]));
      env.put("TERN_NETWORK_INTERNALPORT", "0");
      env.put("TERN_GATEWAY_PORT", Integer.toString(gatewayPorts[node]));
      env.put("TERN_MANAGEMENT_PORT", Integer.toString(managementPorts[node]));
      env.put("TERN_DATA_DIRECTORY", dir.resolve("broker-" + node).toString());
      env.put("TERN_RAFT_FLUSH_MODE", flushMode);
      Path log = dir.resolve("broker-" + node + ".log");
      Files.createDirectories(dir);
      builder.redirectErrorStream(true).redirectOutput(log.toFile());
      brokers.add(builder.start());
    }
  }

  private void awaitReady(Progress progress) throws InterruptedException {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    for (int node = 0; node < brokers.size(); node++) {
      URI readiness =
          URI.create("http://127.0.0.1:" + managementPorts[node] + "/actuator/health/readiness");
      while (true) {
        if (!brokers.get(node).isAlive()) {
          throw new IllegalStateException(
              "broker " + node + " exited with " + brokers.get(node).exitValue() + "; see its log");
        }
        try {
          if (http.send(
                      HttpRequest.newBuilder(readiness).build(),
                      HttpResponse.BodyHandlers.ofString())
                  .statusCode()
              == 200) {
            break;
          }
        } catch (IOException notListeningYet) {
          // starting
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("broker " + node + " not ready after " + READY_TIMEOUT);
        }
        Thread.sleep(100);
      }
      progress.log("broker %d ready", node);
    }
  }

  /** The gateway clients use (node 0's embedded one). */
  String gateway() {
    return "127.0.0.1:" + gatewayPorts[0];
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Stops every broker as SIGTERM does (graceful), forcibly after 30 s. */
  @Override
  public void close() {
    brokers.forEach(Process::destroy);
    for (Process broker : brokers) {
      try {
        if (!broker.waitFor(30, TimeUnit.SECONDS)) {
          broker.destroyForcibly();
        }
      } catch (InterruptedException e) {
        broker.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
