package io.tern.benchmark.load;

import io.tern.benchmark.common.Progress;
import io.tern.engine.broker.BrokerProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A Tern cluster on loopback, one broker process per node ({@link BrokerProcess}). Each broker logs
 * to {@code broker-N.log} in the cluster's directory. The gateway of node 0 serves clients, or a
 * standalone gateway process ({@link #startStandaloneGateway}).
 */
public final class LocalCluster implements AutoCloseable {
  // Generous: brokers start slowly on a loaded 2-core machine, and a wait ends once they are ready.
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);

  private final List<Process> brokers = new ArrayList<>();
  private final List<Map<String, String>> settings = new ArrayList<>();
  private final int[] gatewayPorts;
  private final int[] managementPorts;
  private final int[] restPorts;

  /**
   * The brokers' management token, new for each cluster: pausing, snapshots, rebalancing and fault
   * injection need it. It reaches the brokers in their environment only.
   */
  private final String managementToken = newToken();

  private Path dir;
  private String contactPoints;
  private int clusterSize;
  private int partitions;
  private int replication;
  private Process standaloneGateway;
  private int standaloneGatewayPort = -1;

  private LocalCluster(int size) {
    this.gatewayPorts = new int[size];
    this.managementPorts = new int[size];
    this.restPorts = new int[size];
  }

  /**
   * Starts {@code size} brokers with {@code partitions} partitions of {@code replication} replicas
   * each, data under {@code dir}, and waits until every broker is ready. In {@code extraSettings},
   * "{node}" stands for each broker's node id.
   */
  public static LocalCluster start(
      int size,
      int partitions,
      int replication,
      String flushMode,
      Map<String, String> extraSettings,
      Path dir,
      Progress progress)
      throws IOException, InterruptedException {
    return start(size, 0, partitions, replication, flushMode, extraSettings, dir, progress);
  }

  /**
   * As above, with {@code spares} more brokers (node ids {@code size} on) configured with the same
   * cluster size and the first {@code size} brokers as contact points: started, serving no
   * partition, ready to be added by a cluster change (docs/scaling.md).
   */
  public static LocalCluster start(
      int size,
      int spares,
      int partitions,
      int replication,
      String flushMode,
      Map<String, String> extraSettings,
      Path dir,
      Progress progress)
      throws IOException, InterruptedException {
    LocalCluster cluster = new LocalCluster(size + spares);
    cluster.dir = dir;
    try {
      cluster.launch(size, spares, partitions, replication, flushMode, extraSettings, dir);
      for (int node = 0; node < size + spares; node++) {
        BrokerProcess.awaitReady(
            cluster.brokers.get(node),
            cluster.managementPorts[node],
            log(dir, node),
            READY_TIMEOUT);
        progress.log("broker %d ready", node);
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      cluster.close();
      throw e;
    }
    progress.log(
        "local cluster ready: %d brokers%s, %d partitions, replication %d, raft.flush.mode %s,"
            + " logs and data under %s",
        size,
        spares == 0 ? "" : " and " + spares + " to add",
        partitions,
        replication,
        flushMode,
        dir);
    return cluster;
  }

  private static Path log(Path dir, int node) {
    return dir.resolve("broker-" + node + ".log");
  }

  private void launch(
      int size,
      int spares,
      int partitions,
      int replication,
      String flushMode,
      Map<String, String> extraSettings,
      Path dir)
      throws IOException {
    int all = size + spares;
    int[] commandPorts = new int[all];
    int[] internalPorts = new int[all];
    int[] ports = BrokerProcess.freePorts(5 * all);
    for (int node = 0; node < all; node++) {
      commandPorts[node] = ports[5 * node];
      gatewayPorts[node] = ports[5 * node + 1];
      managementPorts[node] = ports[5 * node + 2];
      internalPorts[node] = ports[5 * node + 3];
      restPorts[node] = ports[5 * node + 4];
    }
    this.clusterSize = size;
    this.partitions = partitions;
    this.replication = replication;
    contactPoints =
        Arrays.stream(commandPorts, 0, size)
            .mapToObj(port -> "127.0.0.1:" + port)
            .collect(Collectors.joining(","));
    for (int node = 0; node < all; node++) {
      Map<String, String> settings = new HashMap<>();
      settings.put("TERN_CLUSTER_NODEID", Integer.toString(node));
      settings.put("TERN_CLUSTER_CLUSTERSIZE", Integer.toString(size));
      settings.put("TERN_CLUSTER_PARTITIONSCOUNT", Integer.toString(partitions));
      settings.put("TERN_CLUSTER_REPLICATIONFACTOR", Integer.toString(replication));
      settings.put("TERN_CLUSTER_CONTACTPOINTS", contactPoints);
      settings.put("TERN_NETWORK_HOST", "127.0.0.1");
      settings.put("TERN_NETWORK_ADVERTISEDHOST", "127.0.0.1");
      settings.put("TERN_NETWORK_COMMANDPORT", Integer.toString(commandPorts[node]));
      // Fixed, as in a deployment: a restarted broker is found where it was (Raft dials it again
      // at once), not first looked up through its command API.
      settings.put("TERN_NETWORK_INTERNALPORT", Integer.toString(internalPorts[node]));
      settings.put("TERN_GATEWAY_PORT", Integer.toString(gatewayPorts[node]));
      settings.put("TERN_MANAGEMENT_PORT", Integer.toString(managementPorts[node]));
      settings.put("TERN_GATEWAY_REST_PORT", Integer.toString(restPorts[node]));
      settings.put("TERN_DATA_DIRECTORY", dir.resolve("broker-" + node).toString());
      settings.put("TERN_RAFT_FLUSH_MODE", flushMode);
      settings.put("TERN_MANAGEMENT_SECURITY_TOKEN", managementToken);
      // No exporter unless asked (--set exporting.history.enabled=true, --set exporters...), as
      // a Zeebe broker runs none by default: figures compare engine with engine.
      settings.put("TERN_EXPORTING_HISTORY_ENABLED", "false");
      int self = node;
      // "{node}" in a value is the broker's node id: each broker needs a directory of its own.
      extraSettings.forEach(
          (key, value) -> settings.put(key, value.replace("{node}", Integer.toString(self))));
      this.settings.add(Map.copyOf(settings));
      brokers.add(BrokerProcess.start(settings, log(dir, node)));
    }
  }

  /**
   * Starts a gateway in a process of its own, in front of the brokers, and waits until it knows
   * every partition's leader; returns its address. The injected latency never applies to it
   * (experimental.network.* delays messages between brokers only), so it stands for a gateway in
   * the clients' and leaders' region: one hop, undelayed, to every partition's leader.
   */
  public String startStandaloneGateway(Progress progress) throws IOException, InterruptedException {
    if (standaloneGateway != null) {
      throw new IllegalStateException("the standalone gateway runs already");
    }
    int[] ports = BrokerProcess.freePorts(2);
    Map<String, String> settings = new HashMap<>();
    settings.put("TERN_CLUSTER_CLUSTERSIZE", Integer.toString(clusterSize));
    settings.put("TERN_CLUSTER_PARTITIONSCOUNT", Integer.toString(partitions));
    settings.put("TERN_CLUSTER_REPLICATIONFACTOR", Integer.toString(replication));
    settings.put("TERN_CLUSTER_CONTACTPOINTS", contactPoints);
    settings.put("TERN_NETWORK_HOST", "127.0.0.1");
    settings.put("TERN_NETWORK_ADVERTISEDHOST", "127.0.0.1");
    settings.put("TERN_GATEWAY_PORT", Integer.toString(ports[0]));
    settings.put("TERN_MANAGEMENT_PORT", Integer.toString(ports[1]));
    settings.put("TERN_GATEWAY_REST_PORT", "0");
    settings.put("TERN_MANAGEMENT_SECURITY_TOKEN", managementToken);
    Path log = dir.resolve("gateway.log");
    standaloneGateway = BrokerProcess.startGateway(settings, log);
    BrokerProcess.awaitReady(standaloneGateway, ports[1], log, READY_TIMEOUT);
    standaloneGatewayPort = ports[0];
    progress.log("standalone gateway ready on port %d, log %s", ports[0], log);
    return standaloneGateway();
  }

  /** The standalone gateway's address (after {@link #startStandaloneGateway}). */
  public String standaloneGateway() {
    if (standaloneGatewayPort < 0) {
      throw new IllegalStateException("no standalone gateway started");
    }
    return "127.0.0.1:" + standaloneGatewayPort;
  }

  /** The gateway embedded in broker {@code node}. */
  public String gateway(int node) {
    return "127.0.0.1:" + gatewayPorts[node];
  }

  /** How many brokers the cluster has, those started to be added included. */
  public int size() {
    return brokers.size();
  }

  /** Kills broker {@code node} as a crash does (SIGKILL) and waits until it is gone. */
  public void kill(int node) throws InterruptedException {
    Process broker = brokers.get(node);
    broker.destroyForcibly();
    broker.waitFor();
  }

  /**
   * Starts broker {@code node} again (after {@link #kill}) with its settings, ports and data, and
   * does not wait until it is ready (a broker alone, without a quorum, cannot be): see {@link
   * #awaitReady}.
   */
  public void restart(int node) throws IOException {
    if (brokers.get(node).isAlive()) {
      throw new IllegalStateException("broker " + node + " still runs");
    }
    brokers.set(node, BrokerProcess.start(settings.get(node), log(dir, node)));
  }

  /**
   * Waits until broker {@code node} answers ready; throws if it exits or {@code timeout} passes.
   */
  public void awaitReady(int node, Duration timeout) throws InterruptedException {
    BrokerProcess.awaitReady(brokers.get(node), managementPorts[node], log(dir, node), timeout);
  }

  /** Whether broker {@code node}'s process runs (a stopped one, SIGSTOP, runs). */
  public boolean isAlive(int node) {
    return brokers.get(node).isAlive();
  }

  /**
   * The standalone gateway's operating-system process id (after {@link #startStandaloneGateway}).
   */
  public long standaloneGatewayPid() {
    if (standaloneGateway == null) {
      throw new IllegalStateException("no standalone gateway started");
    }
    return standaloneGateway.pid();
  }

  /** Broker {@code node}'s operating-system process id. */
  public long pid(int node) {
    return brokers.get(node).pid();
  }

  /** Broker {@code node}'s data directory. */
  public Path dataDirectory(int node) {
    return Path.of(settings.get(node).get("TERN_DATA_DIRECTORY"));
  }

  /** Deletes broker {@code node}'s data directory (the broker must not run). */
  public void wipe(int node) throws IOException {
    if (brokers.get(node).isAlive()) {
      throw new IllegalStateException("broker " + node + " still runs");
    }
    Path data = dataDirectory(node);
    if (java.nio.file.Files.exists(data)) {
      try (java.util.stream.Stream<Path> paths = java.nio.file.Files.walk(data)) {
        for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
          java.nio.file.Files.delete(path);
        }
      }
    }
  }

  /**
   * Runs bin/restore ({@code RestoreMain}, this JVM's java and class path) for broker {@code node}
   * with its settings, so that its empty data directory holds backup {@code backupId}; returns null
   * once it succeeded, else its exit code and the end of its log ({@code restore-N.log}).
   */
  public String restore(int node, long backupId) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("--add-exports");
    command.add("java.base/jdk.internal.misc=ALL-UNNAMED");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("io.tern.engine.broker.RestoreMain");
    command.add("--backupId");
    command.add(Long.toString(backupId));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(key -> key.startsWith("TERN_"));
    builder.environment().putAll(settings.get(node));
    Path log = dir.resolve("restore-" + node + ".log");
    builder
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    Process restore = builder.start();
    if (!restore.waitFor(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      restore.destroyForcibly();
      return "did not end within " + READY_TIMEOUT + "; see " + log;
    }
    if (restore.exitValue() == 0) {
      return null;
    }
    List<String> lines = java.nio.file.Files.readAllLines(log);
    return "exit "
        + restore.exitValue()
        + ": "
        + String.join("\n", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
  }

  /** Every broker's gateway (each embeds one), by node id. */
  public List<String> gateways() {
    return Arrays.stream(gatewayPorts).mapToObj(port -> "127.0.0.1:" + port).toList();
  }

  /** The REST API of the gateway clients use (node 0's). */
  public String restAddress() {
    return "127.0.0.1:" + restPorts[0];
  }

  /** The gateway clients use (node 0's embedded one). */
  public String gateway() {
    return "127.0.0.1:" + gatewayPorts[0];
  }

  /** Each broker's management address, by node id. */
  public List<String> managementAddresses() {
    return Arrays.stream(managementPorts).mapToObj(port -> "127.0.0.1:" + port).toList();
  }

  /** The Authorization header's value for the brokers' management operations. */
  public String managementAuthorization() {
    return "Bearer " + managementToken;
  }

  private static String newToken() {
    byte[] random = new byte[32];
    new java.security.SecureRandom().nextBytes(random);
    return java.util.HexFormat.of().formatHex(random);
  }

  /** Stops every broker as SIGTERM does (graceful), forcibly after 30 s. */
  @Override
  public void close() {
    List<Process> all = new ArrayList<>(brokers);
    if (standaloneGateway != null) {
      all.add(standaloneGateway);
    }
    all.forEach(Process::destroy);
    for (Process broker : all) {
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
