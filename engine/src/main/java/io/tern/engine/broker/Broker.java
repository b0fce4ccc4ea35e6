package io.tern.engine.broker;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.BrokerInfo;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.Partition;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.TopologyResponse;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tern.engine.gateway.Gateway;
import io.tern.engine.gateway.GatewayJobStreams;
import io.tern.engine.partition.EnginePartition;
import io.tern.engine.partition.EnginePartitionConfig;
import io.tern.engine.processor.ProcessorConfig;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.engine.state.StateConfig;
import io.tern.engine.state.StateResources;
import io.tern.engine.workflow.WorkflowConfig;
import io.tern.engine.workflow.processing.WorkflowEngine;
import io.tern.raft.Member;
import io.tern.raft.RaftRole;
import io.tern.raft.server.RaftServer;
import io.tern.raft.server.RaftServerConfig;
import io.tern.raft.transport.NettyRaftTransport;
import io.tern.raft.transport.TransportConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One broker process: the Raft transport, the partitions it hosts (Raft group, stream processor and
 * workflow engine each) and the embedded gateway. For now a broker hosts every partition of a
 * one-broker cluster (see {@link BrokerConfig}).
 */
public final class Broker implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Broker.class);
  private static final String VERSION = "tern-0.1.0";

  private final BrokerConfig config;
  private final MeterRegistry registry;
  private final RaftServer raft;
  private final StateResources resources;
  private final LocalPartitions partitions;
  private final List<EnginePartition> opened = new ArrayList<>();
  private final List<ManagementApi.Hosted> hosted = new ArrayList<>();
  private Gateway gateway;
  private ManagementServer management;

  private Broker(BrokerConfig config, MeterRegistry registry) {
    this.config = config;
    this.registry = registry;
    int memberId = memberIdOf(config.nodeId());
    TransportConfig transport =
        TransportConfig.builder(memberId).bind(config.host(), config.commandPort()).build();
    RaftServerConfig raftConfig =
        RaftServerConfig.builder(config.dataDirectory().resolve("raft"))
            .electionTimeoutMs(config.electionTimeoutMs())
            .heartbeatIntervalMs(config.heartbeatIntervalMs())
            .flushMode(config.flushMode())
            .flushDelayMs(config.flushDelayMs())
            .build();
    this.raft =
        new RaftServer(
            memberId,
            raftConfig,
            new NettyRaftTransport(transport, registry, Tags.empty()).start(),
            registry);
    this.resources =
        new StateResources(
            StateConfig.defaults()
                .withDisableWal(config.disableWal())
                .withMemoryLimitMb(config.memoryLimitMb()));
    this.partitions = new LocalPartitions(config.partitionsCount());
  }

  /** Raft member ids start at 1; Zeebe's node ids at 0. */
  private static int memberIdOf(int nodeId) {
    return nodeId + 1;
  }

  /**
   * Opens every partition and the gateway; returns at once (partitions elect in the background).
   */
  /** Starts with a Prometheus registry, scraped at the management server's /actuator/prometheus. */
  public static Broker start(BrokerConfig config) {
    return start(config, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  }

  public static Broker start(BrokerConfig config, MeterRegistry registry) {
    Broker broker = new Broker(config, registry);
    try {
      broker.open();
    } catch (RuntimeException e) {
      broker.close();
      throw e;
    }
    return broker;
  }

  private void open() {
    GatewayJobStreams jobStreams = new GatewayJobStreams();
    WorkflowConfig workflow =
        WorkflowConfig.defaults()
            .withPartitions(partitions)
            .withSubscriptionRetryInterval(config.subscriptionRetryInterval())
            .withJobStreams(jobStreams)
            .withResultAwaitLimit(config.resultAwaitLimit())
            .withMeterRegistry(registry);
    List<Member> members = List.of(new Member(memberIdOf(config.nodeId()), 1));
    for (int partitionId = 1; partitionId <= config.partitionsCount(); partitionId++) {
      EnginePartitionConfig partitionConfig =
          EnginePartitionConfig.defaults(config.dataDirectory().resolve("partition-" + partitionId))
              .withSnapshotPeriod(config.snapshotPeriod())
              .withDiskWatermark(config.minFreeDiskBytes(), config.diskCheckInterval())
              .withProcessor(
                  ProcessorConfig.defaults()
                      .withMaxCommandsInBatch(config.maxCommandsInBatch())
                      .withMaxBatchBytes(config.maxBatchBytes()));
      if (config.runtimeDirectory() != null) {
        partitionConfig =
            partitionConfig.withRuntimeDirectory(
                config.runtimeDirectory().resolve("partition-" + partitionId));
      }
      EnginePartition partition =
          EnginePartition.start(
              raft,
              partitionId,
              members,
              partitionConfig,
              resources,
              WorkflowEngine.factory(workflow),
              partitions,
              System::currentTimeMillis,
              registry);
      opened.add(partition);
      hosted.add(new ManagementApi.Hosted(partition, members));
      partitions.add(partition, new CommandLimiter(config.backpressure(), partitionId, registry));
      LOG.info("Partition {} opened (data {})", partitionId, partitionConfig.dataDirectory());
    }
    if (config.gatewayEnabled()) {
      gateway = Gateway.start(config.gateway(), partitions, jobStreams, this::topology);
    }
    if (config.managementEnabled()) {
      management =
          ManagementServer.start(
              config.host(),
              config.managementPort(),
              new ManagementApi(List.copyOf(hosted), this::scrape));
    }
  }

  /** The metrics in Prometheus' text format (empty unless the registry is Prometheus'). */
  private String scrape() {
    return registry instanceof PrometheusMeterRegistry prometheus ? prometheus.scrape() : "";
  }

  /** The management server's port, or -1 without one. */
  public int managementPort() {
    return management == null ? -1 : management.port();
  }

  /** Waits until every partition has a leader that processes; false if {@code timeout} passed. */
  public boolean awaitReady(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (opened.stream().allMatch(Broker::processing)) {
        return true;
      }
      Thread.sleep(10);
    }
    return false;
  }

  private static boolean processing(EnginePartition partition) {
    return partition.raft().role() == RaftRole.LEADER
        && partition.processor().phase() == ProcessorPhase.PROCESSING;
  }

  /** The gateway's port, or -1 without a gateway. */
  public int gatewayPort() {
    return gateway == null ? -1 : gateway.port();
  }

  public BrokerConfig config() {
    return config;
  }

  /** What this broker knows of the cluster: itself and its partitions' roles. */
  TopologyResponse topology() {
    BrokerInfo.Builder self =
        BrokerInfo.newBuilder()
            .setNodeId(config.nodeId())
            .setHost(config.advertisedHost())
            .setPort(config.commandPort())
            .setVersion(VERSION);
    for (EnginePartition partition : opened) {
      self.addPartitions(
          Partition.newBuilder()
              .setPartitionId(partition.partitionId())
              .setRole(
                  partition.raft().role() == RaftRole.LEADER
                      ? Partition.PartitionBrokerRole.LEADER
                      : Partition.PartitionBrokerRole.FOLLOWER)
              .setHealth(
                  partition.processor().phase() == ProcessorPhase.FAILED
                      ? Partition.PartitionBrokerHealth.UNHEALTHY
                      : Partition.PartitionBrokerHealth.HEALTHY));
    }
    return TopologyResponse.newBuilder()
        .addBrokers(self)
        .setClusterSize(config.clusterSize())
        .setPartitionsCount(config.partitionsCount())
        .setReplicationFactor(config.replicationFactor())
        .setGatewayVersion(VERSION)
        .build();
  }

  /** Stops accepting requests, then closes the partitions (flushing state), Raft and RocksDB. */
  @Override
  public void close() {
    if (gateway != null) {
      gateway.close();
    }
    if (management != null) {
      management.close();
    }
    for (EnginePartition partition : opened) {
      try {
        partition.close();
        LOG.info("Partition {} closed", partition.partitionId());
      } catch (RuntimeException e) {
        LOG.warn("Partition {} did not close cleanly", partition.partitionId(), e);
      }
    }
    raft.close();
    resources.close();
  }
}
