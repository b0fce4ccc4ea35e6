package io.tern.engine.broker;

import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tern.engine.cluster.CallLatency;
import io.tern.engine.cluster.ClusterClient;
import io.tern.engine.cluster.ClusterPartitions;
import io.tern.engine.cluster.ClusterTopology;
import io.tern.engine.cluster.JobStreamForwarding;
import io.tern.engine.gateway.Gateway;
import io.tern.engine.gateway.GatewayJobStreams;
import io.tern.engine.scaling.Topology;
import io.tern.engine.tls.ClusterTls;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;

/**
 * A gateway that holds no partitions (for the Helm chart's gateway deployment): it learns the
 * topology from the brokers' command APIs at {@code cluster.contactPoints} and sends every request
 * to the leader of its partition.
 */
public final class StandaloneGateway implements AutoCloseable {
  private final ClusterClient cluster;
  private final Gateway gateway;
  private final ManagementServer management;
  private final ClusterTls clusterTls;

  private StandaloneGateway(
      ClusterClient cluster, Gateway gateway, ManagementServer management, ClusterTls clusterTls) {
    this.cluster = cluster;
    this.gateway = gateway;
    this.management = management;
    this.clusterTls = clusterTls;
  }

  /** Starts serving; throws {@link IllegalArgumentException} without contact points. */
  public static StandaloneGateway start(BrokerConfig config) {
    if (config.contactPoints().isEmpty()) {
      throw new IllegalArgumentException(
          "a standalone gateway needs cluster.contactPoints: the host:port of the brokers'"
              + " command ports (network.commandPort)");
    }
    // The gateway calls the brokers' command API as a member of the cluster: with cluster TLS it
    // presents its certificate (network.security.*), as the brokers require.
    ClusterTls clusterTls =
        config.clusterTls() == null ? null : ClusterTls.load(config.clusterTls());
    ClusterClient cluster =
        new ClusterClient(
            config.contactPoints(),
            -1,
            config.partitionsCount(),
            CallLatency.NONE,
            clusterTls == null ? null : clusterTls.commandApiClient());
    ClusterPartitions partitions = new ClusterPartitions(ClusterPartitions.Local.NONE, cluster);
    GatewayJobStreams jobStreams = new GatewayJobStreams();
    cluster.onJobsAvailable(jobStreams::jobsAvailable);
    JobStreamForwarding forwarding = new JobStreamForwarding(cluster, partitions);
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    // Which gateway a series is from, stable across restarts of the same pod name (Prometheus'
    // instance label is the pod's address); set before any meter registers.
    registry.config().commonTags("gateway", gatewayName());
    cluster.timeCallsIn(registry);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    cluster.start();
    try {
      Gateway gateway =
          ListenFailedException.listen(
              "gateway.port",
              config.gateway().host(),
              config.gateway().port(),
              () ->
                  Gateway.start(
                      config.gateway(),
                      partitions,
                      jobStreams,
                      forwarding,
                      new ClusterTopology(
                          cluster,
                          null,
                          config.clusterSize(),
                          config.replicationFactor(),
                          Topology::shapeOf),
                      registry));
      ManagementServer management = null;
      try {
        Broker.startRest(gateway, config, registry);
      } catch (RuntimeException e) {
        gateway.close();
        throw e;
      }
      if (config.managementEnabled()) {
        try {
          management =
              ListenFailedException.listen(
                  "management.port",
                  config.managementHost(),
                  config.managementPort(),
                  () ->
                      ManagementServer.start(
                          config.managementHost(),
                          config.managementPort(),
                          config.managementTls(),
                          new GatewayManagementApi(
                              cluster,
                              registry::scrape,
                              gateway.jobStreams(),
                              config.managementToken())));
        } catch (RuntimeException e) {
          gateway.close();
          throw e;
        }
      }
      return new StandaloneGateway(cluster, gateway, management, clusterTls);
    } catch (RuntimeException e) {
      cluster.close();
      if (clusterTls != null) {
        clusterTls.close();
      }
      throw e;
    }
  }

  /**
   * This gateway's name on its metrics: the host name, which Kubernetes sets to the pod's name
   * (HOSTNAME; the JVM's lookup where the variable is unset).
   */
  static String gatewayName() {
    String hostname = System.getenv("HOSTNAME");
    if (hostname != null && !hostname.isBlank()) {
      return hostname;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "gateway";
    }
  }

  /** The management server's port, or -1 without one. */
  public int managementPort() {
    return management == null ? -1 : management.port();
  }

  public int port() {
    return gateway.port();
  }

  /** The REST API's port, or -1 with gateway.rest.enabled off. */
  public int restPort() {
    return gateway.restPort();
  }

  /** Its job streams and parked requests. */
  GatewayJobStreams jobStreams() {
    return gateway.jobStreams();
  }

  /** Waits until every partition's leader is known; false if {@code timeout} passed. */
  public boolean awaitLeaders(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (cluster.partitionsWithoutLeader().isEmpty()) {
        return true;
      }
      Thread.sleep(10);
    }
    return false;
  }

  @Override
  public void close() {
    if (management != null) {
      management.close();
    }
    gateway.close();
    cluster.close();
    if (clusterTls != null) {
      clusterTls.close();
    }
  }
}
