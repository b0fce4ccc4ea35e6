package io.tern.engine.broker;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tern.engine.cluster.BrokerApiServer;
import io.tern.engine.cluster.BrokerIdentity;
import io.tern.engine.cluster.BrokerJobStreams;
import io.tern.engine.cluster.BrokerMessages.BrokerState;
import io.tern.engine.cluster.BrokerMessages.PartitionState;
import io.tern.engine.cluster.ClusterClient;
import io.tern.engine.cluster.ClusterPartitions;
import io.tern.engine.cluster.ClusterTopology;
import io.tern.engine.cluster.JobStreamForwarding;
import io.tern.engine.cluster.PartitionDistribution;
import io.tern.engine.exporter.ExportRecordMapper;
import io.tern.engine.exporter.ExporterLoadException;
import io.tern.engine.exporter.ExporterLoader;
import io.tern.engine.exporter.LoadedExporter;
import io.tern.engine.exporter.records.ZeebeRecordMapper;
import io.tern.engine.gateway.Gateway;
import io.tern.engine.gateway.GatewayJobStreams;
import io.tern.engine.gateway.auth.AuthenticationConfig;
import io.tern.engine.partition.EnginePartition;
import io.tern.engine.partition.EnginePartitionConfig;
import io.tern.engine.partition.PartitionExporters;
import io.tern.engine.processor.ProcessorConfig;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.engine.scaling.Topology;
import io.tern.engine.scaling.TopologyStore;
import io.tern.engine.state.StateConfig;
import io.tern.engine.state.StateResources;
import io.tern.engine.tls.ClusterTls;
import io.tern.engine.workflow.WorkflowConfig;
import io.tern.engine.workflow.processing.WorkflowEngine;
import io.tern.raft.Member;
import io.tern.raft.RaftRole;
import io.tern.raft.server.RaftServer;
import io.tern.raft.server.RaftServerConfig;
import io.tern.raft.transport.NettyRaftTransport;
import io.tern.raft.transport.RaftTransport;
import io.tern.raft.transport.TransportConfig;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One broker process: the Raft transport, the partitions it holds (Raft group, stream processor and
 * workflow engine each; which ones is {@link PartitionDistribution}'s round robin), its command API
 * for gateways and other brokers, the embedded gateway and the management server.
 *
 * <p>This class opens and closes them in order; {@link RaftSettings} turns the broker's settings
 * into Raft's, {@link LatencyInjection} wires in the latency experiment and {@link CommandApiHost}
 * is what the command API serves from.
 */
public final class Broker implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

  /** How long a cluster-wide rebalance waits for each other broker. */
  private static final long REBALANCE_TIMEOUT_MS = 30_000;

  private final BrokerConfig config;
  private final MeterRegistry registry;
  private final ClusterTls clusterTls;
  private final NettyRaftTransport transport;
  private final RaftServer raft;
  private final NetworkFaults networkFaults;
  private final StateResources resources;
  private final LocalPartitions partitions;
  private final ClusterClient cluster;
  private final ClusterPartitions clusterPartitions;
  private final ResourceMetrics resourceMetrics;
  private final BrokerBackups backups;

  /**
   * The brokers' host names: the contact points', this broker's, and those the brokers publish.
   * Only callers on these hosts (or with certificates naming them) may send internal commands.
   */
  private final Set<String> brokerHosts = ConcurrentHashMap.newKeySet();

  /**
   * No mapper of records: with it the broker runs no exporter director (exporters are loaded and
   * configured at start only, as before the director), since a director would move every exporter's
   * position past records it could not hand over, and they would never be exported.
   */
  public static final IntFunction<ExportRecordMapper> NO_MAPPER =
      partition -> ExportRecordMapper.NONE;

  /**
   * What {@link #start(BrokerConfig)} exports each partition's records with: Zeebe 8.6's records
   * (docs/exporter-records.md), a mapper per partition.
   */
  public static final IntFunction<ExportRecordMapper> DEFAULT_MAPPERS =
      partition -> new ZeebeRecordMapper(partition, ZeebeRecordMapper.BROKER_VERSION)::map;

  /**
   * The configured exporters, loaded and configured at start; each partition led here runs an
   * instance of each (docs/exporters.md).
   */
  private final List<LoadedExporter> exporters;

  private final IntFunction<ExportRecordMapper> mappers;

  // Replicas come and go while the broker runs (cluster changes): read from any thread.
  private final List<EnginePartition> opened = new CopyOnWriteArrayList<>();
  private final List<ManagementApi.Hosted> hosted = new CopyOnWriteArrayList<>();
  private final TopologyStore topology;
  private final ClusterScaling scaling;
  private WorkflowConfig workflow;
  private final DataDirectoryLock dataLock;
  private BrokerApiServer api;
  private Gateway gateway;
  private ManagementServer management;

  private Broker(
      BrokerConfig config,
      MeterRegistry registry,
      DataDirectoryLock dataLock,
      TopologyStore topology,
      List<LoadedExporter> exporters,
      IntFunction<ExportRecordMapper> mappers) {
    this.config = config;
    this.topology = topology;
    this.registry = registry;
    this.dataLock = dataLock;
    this.exporters = exporters;
    this.mappers = mappers;
    int memberId = PartitionDistribution.memberIdOf(config.nodeId());
    // Read first: bad certificate files then fail the start before any port is bound.
    this.clusterTls = config.clusterTls() == null ? null : ClusterTls.load(config.clusterTls());
    TransportConfig transportConfig =
        RaftSettings.transportConfig(
            config, memberId, clusterTls == null ? null : clusterTls.raft());
    RaftServerConfig raftConfig = RaftSettings.raftServerConfig(config);
    try {
      // Before the transport starts: a refused configuration then leaves no port bound.
      RaftServer.checkMessagesFitFrames(raftConfig, transportConfig.maxFrameBytes());
      this.transport =
          ListenFailedException.listen(
              "network.internalPort",
              config.host(),
              config.internalPort(),
              () -> new NettyRaftTransport(transportConfig, registry, Tags.empty()).start());
    } catch (RuntimeException e) {
      if (clusterTls != null) {
        clusterTls.close();
      }
      throw e;
    }
    try {
      RaftTransport latent = LatencyInjection.raftTransport(config, registry, transport);
      this.networkFaults = NetworkFaults.wrap(config, latent);
      this.raft =
          new RaftServer(
              memberId,
              raftConfig,
              networkFaults.transport() != null ? networkFaults.transport() : latent,
              registry);
    } catch (RuntimeException e) {
      transport.close();
      if (clusterTls != null) {
        clusterTls.close();
      }
      throw e;
    }
    this.resources =
        new StateResources(
            StateConfig.defaults()
                .withDisableWal(config.disableWal())
                .withMemoryLimitMb(config.memoryLimitMb()));
    this.partitions = new LocalPartitions(config.nodeId(), config.partitionsCount());
    this.cluster =
        new ClusterClient(
            config.contactPoints(),
            config.nodeId(),
            config.partitionsCount(),
            LatencyInjection.callLatency(config),
            clusterTls == null ? null : clusterTls.commandApiClient());
    cluster.timeCallsIn(registry);
    this.clusterPartitions = new ClusterPartitions(partitions, cluster);
    this.scaling =
        new ClusterScaling(
            config.nodeId(),
            topology,
            cluster,
            new PartitionMembership(raft, cluster),
            new ClusterScaling.Replicas() {
              @Override
              public java.util.Set<Integer> hosted() {
                java.util.Set<Integer> ids = new java.util.TreeSet<>();
                opened.forEach(partition -> ids.add(partition.partitionId()));
                return ids;
              }

              @Override
              public void open(int partitionId) {
                openPartition(partitionId, topology.current().bootstrapGroup(partitionId));
              }

              @Override
              public void drop(int partitionId) {
                dropPartition(partitionId);
              }
            },
            registry);
    this.resourceMetrics = new ResourceMetrics(registry);
    this.backups = new BrokerBackups(config, clusterPartitions, registry);
    config.contactPoints().forEach(point -> brokerHosts.add(point.getHostString()));
    if (!config.advertisedHost().isBlank()) {
      brokerHosts.add(config.advertisedHost());
    }
    // Raft learns where the other members listen from their command API's state.
    cluster.addListener(
        state -> {
          if (!state.host().isBlank()) {
            brokerHosts.add(state.host());
          }
          if (state.nodeId() != config.nodeId()) {
            transport.addPeer(
                PartitionDistribution.memberIdOf(state.nodeId()),
                new InetSocketAddress(state.host(), state.internalPort()));
          }
        });
  }

  /**
   * Starts with a Prometheus registry, scraped at the management server's /actuator/prometheus,
   * every meter tagged with this broker's {@code node_id}. The JVM's memory, GC, CPU and uptime
   * come with every registry (see {@link ResourceMetrics}); threads are added here for the
   * dashboard's JVM panel.
   */
  public static Broker start(BrokerConfig config) {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    // Every series names its broker: Prometheus' instance label is the pod's address, which
    // changes on each restart (a series would break) and says nothing on a dashboard. First, as
    // common tags apply only to meters registered after them.
    registry.config().commonTags("node_id", Integer.toString(config.nodeId()));
    new JvmThreadMetrics().bindTo(registry);
    return start(config, registry);
  }

  /**
   * Opens this broker's partitions, its command API and gateway; returns at once (partitions elect
   * in the background).
   *
   * @throws ExporterLoadException when a configured exporter does not load or configure
   * @throws DataDirectoryLock.InUseException when another broker holds {@code data.directory}
   * @throws StoredTopology.MismatchException when the data was made under another topology
   * @throws ListenFailedException when a port is taken
   */
  public static Broker start(BrokerConfig config, MeterRegistry registry) {
    return start(config, registry, DEFAULT_MAPPERS);
  }

  /**
   * As {@link #start(BrokerConfig, MeterRegistry)}, exporting each partition's records as {@code
   * mappers} (by partition id) maps them.
   */
  public static Broker start(
      BrokerConfig config, MeterRegistry registry, IntFunction<ExportRecordMapper> mappers) {
    // First, as Zeebe does: every exporter loads and accepts its configuration, or the broker
    // does not start (configure sees partition 1: it runs once, not once per partition).
    List<LoadedExporter> exporters =
        new ExporterLoader(1, registry, InstantSource.system()).loadAll(config.exporters());
    // A second broker on the same data is told so before it binds a port.
    DataDirectoryLock dataLock;
    try {
      dataLock = DataDirectoryLock.acquire(config.dataDirectory());
    } catch (RuntimeException | Error e) {
      exporters.forEach(LoadedExporter::close);
      throw e;
    }
    // Under the lock (no other broker writes it), before any partition opens on the data.
    try {
      StoredTopology.verifyOrRecord(config);
    } catch (RuntimeException | Error e) {
      dataLock.close();
      exporters.forEach(LoadedExporter::close);
      throw e;
    }
    TopologyStore topology;
    try {
      topology = StoredTopology.open(config);
    } catch (RuntimeException | Error e) {
      dataLock.close();
      exporters.forEach(LoadedExporter::close);
      throw e;
    }
    Broker broker;
    try {
      broker = new Broker(config, registry, dataLock, topology, exporters, mappers);
    } catch (RuntimeException | Error e) {
      exporters.forEach(LoadedExporter::close);
      dataLock.close();
      throw e;
    }
    try {
      broker.open();
    } catch (RuntimeException | Error e) {
      try {
        broker.close();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
    return broker;
  }

  private void open() {
    GatewayJobStreams gatewayStreams = config.gatewayEnabled() ? new GatewayJobStreams() : null;
    BrokerJobStreams jobStreams =
        new BrokerJobStreams(
            gatewayStreams == null ? io.tern.engine.workflow.JobStreams.NONE : gatewayStreams);
    workflow =
        WorkflowConfig.defaults()
            .withPartitions(clusterPartitions)
            .withSubscriptionRetryInterval(config.subscriptionRetryInterval())
            .withJobStreams(jobStreams)
            .withResultAwaitLimit(config.resultAwaitLimit())
            .withModelLimits(config.modelLimits())
            .withMeterRegistry(registry);
    // The replicas the stored topology places here (PartitionDistribution's round robin until
    // the cluster is changed), each created with its partition's bootstrap group.
    for (int partitionId : topology.current().partitionsToHost(config.nodeId())) {
      openPartition(partitionId, topology.current().bootstrapGroup(partitionId));
    }
    if (!topology.current().lists(config.nodeId())) {
      LOG.info(
          "Broker {} is not a broker of the cluster ({}): it serves no partition until added"
              + " (POST /actuator/cluster/brokers on the coordinator, docs/scaling.md)",
          config.nodeId(),
          topology.current().describePlacement());
    }
    api =
        ListenFailedException.listen(
            "network.commandPort",
            config.host(),
            config.commandPort(),
            () ->
                BrokerApiServer.start(
                    new CommandApiHost(partitions, jobStreams, hosted, this::state, scaling),
                    config.host(),
                    config.commandPort(),
                    clusterTls == null ? null : clusterTls.commandApiServer(),
                    new BrokerIdentity(() -> brokerHosts),
                    registry));
    if (clusterTls == null
        && config.gateway().authentication().mode() != AuthenticationConfig.Mode.NONE) {
      // The command API takes client commands from any caller without cluster TLS: whoever
      // reaches it there goes around the gateway's token check.
      LOG.warn(
          "The gateway checks tokens but cluster TLS is off: the command API (network.commandPort"
              + " {}) takes client commands from anyone who reaches it. Turn on"
              + " network.security.enabled, or keep the port reachable by brokers and gateways"
              + " only (docs/security.md)",
          config.commandPort());
    }
    jobStreams.announceTo(api::jobsAvailable);
    if (gatewayStreams != null) {
      cluster.onJobsAvailable(gatewayStreams::jobsAvailable);
    }
    if (!config.advertisedHost().isBlank()) {
      cluster.announceAs(config.advertisedHost(), api.port());
    }
    cluster.start();
    scaling.start();
    if (gatewayStreams != null) {
      JobStreamForwarding forwarding = new JobStreamForwarding(cluster, clusterPartitions);
      gateway =
          ListenFailedException.listen(
              "gateway.port",
              config.gateway().host(),
              config.gateway().port(),
              () ->
                  Gateway.start(
                      config.gateway(),
                      clusterPartitions,
                      gatewayStreams,
                      forwarding,
                      new ClusterTopology(
                          cluster,
                          this::state,
                          config.clusterSize(),
                          config.replicationFactor(),
                          Topology::shapeOf),
                      registry));
      startRest(gateway, config, registry);
    }
    if (config.managementEnabled()) {
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
                      new ManagementApi(
                          hosted,
                          this::scrape,
                          this::rebalance,
                          config.experimentFlags(),
                          networkFaults,
                          () -> JobStreamsEndpoint.answer(gatewayJobStreams(), jobStreams),
                          config.partitionsCount(),
                          config.managementToken(),
                          backups.endpoint(),
                          scaling.endpoint())));
      LOG.info(
          config.managementToken().configured()
              ? "Management operations (POST /actuator/...) need the management token"
              : "Management operations (POST /actuator/...) are off: no management token is set"
                  + " (management.security.tokenFile or TERN_MANAGEMENT_SECURITY_TOKEN)");
    }
    logHistoryStore(config);
    LOG.info(
        "Broker {} of {}: command API on {}:{}, Raft on {}:{}, {} of {} partition(s) here",
        config.nodeId(),
        config.clusterSize(),
        config.host(),
        api.port(),
        config.host(),
        transport.boundAddress().getPort(),
        opened.size(),
        config.partitionsCount());
    if (!exporters.isEmpty() && mappers == NO_MAPPER) {
      LOG.warn(
          "Exporters are configured but not run: this broker has no mapper of its records to"
              + " Zeebe's yet (docs/exporters.md)");
    }
    if (config.processUncommitted()) {
      LOG.warn(
          "EXPERIMENT: broker {} processes commands before they commit (processing.uncommitted):"
              + " answers still wait for the commit, but a leader change costs a state rebuild;"
              + " timers fire from uncommitted state: {}",
          config.nodeId(),
          config.uncommittedTimers());
    }
  }

  /**
   * Opens this broker's replica of {@code partitionId} (at start, or when a cluster change adds it
   * here: then empty, and it catches up from the leader). {@code members} is the partition's
   * bootstrap group.
   */
  private synchronized void openPartition(int partitionId, List<Member> members) {
    if (opened.stream().anyMatch(partition -> partition.partitionId() == partitionId)) {
      return;
    }
    EnginePartitionConfig partitionConfig =
        EnginePartitionConfig.defaults(config.dataDirectory().resolve("partition-" + partitionId))
            .withSnapshotPeriod(config.snapshotPeriod())
            .withSnapshotEveryRecords(config.snapshotEveryRecords())
            .withDiskWatermark(config.minFreeDiskBytes(), config.diskCheckInterval())
            .withRuntimeWatermark(config.minFreeRuntimeBytes())
            .withProcessor(
                ProcessorConfig.defaults()
                    .withMaxCommandsInBatch(config.maxCommandsInBatch())
                    .withMaxBatchBytes(config.maxBatchBytes())
                    .withUncommitted(config.processUncommitted())
                    .withUncommittedTimers(config.uncommittedTimers()));
    partitionConfig = partitionConfig.withBackups(backups.context());
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
            registry,
            mappers == NO_MAPPER
                ? PartitionExporters.NONE
                : new PartitionExporters(exporters, mappers, config.exporting()));
    CommandLimiter limiter = new CommandLimiter(config.backpressure(), partitionId, registry);
    resourceMetrics.partition(
        partitionId,
        config.dataDirectory().resolve("raft").resolve("partition-" + partitionId),
        partitionConfig.runtimeDirectory());
    opened.add(partition);
    hosted.add(new ManagementApi.Hosted(partition, members, limiter));
    partitions.add(partition, limiter);
    LOG.info(
        "Partition {} opened (members {}, data {})",
        partitionId,
        members,
        partitionConfig.dataDirectory());
  }

  /**
   * Closes this broker's replica of {@code partitionId} and deletes its data: the partition's group
   * removed this broker (a cluster change moved the replica away).
   */
  private synchronized void dropPartition(int partitionId) {
    EnginePartition partition =
        opened.stream().filter(p -> p.partitionId() == partitionId).findFirst().orElse(null);
    if (partition == null) {
      return;
    }
    partitions.remove(partitionId);
    opened.remove(partition);
    hosted.removeIf(h -> h.partition() == partition);
    partition.close();
    raft.removePartition(partitionId, true);
    // Its meters read closed objects from now on; a replica opened here again registers anew.
    String tag = Integer.toString(partitionId);
    registry.getMeters().stream()
        .filter(meter -> tag.equals(meter.getId().getTag("partition")))
        .toList()
        .forEach(registry::remove);
    try {
      io.tern.engine.scaling.ReplicaFiles.delete(
          config.dataDirectory().resolve("partition-" + partitionId));
      if (config.runtimeDirectory() != null) {
        io.tern.engine.scaling.ReplicaFiles.delete(
            config.runtimeDirectory().resolve("partition-" + partitionId));
      }
    } catch (java.io.IOException e) {
      LOG.warn("Partition {}: its data could not all be deleted", partitionId, e);
    }
    LOG.info("Partition {} dropped: its replica moved away, its data is deleted", partitionId);
  }

  /** Rebalances every partition of the cluster: this broker's and, through theirs, the others'. */
  private CompletableFuture<Map<Integer, String>> rebalance() {
    CompletableFuture<Map<Integer, String>> local = new Rebalancer(hosted).rebalanceLocal();
    CompletableFuture<Map<Integer, String>> others = cluster.rebalanceOthers(REBALANCE_TIMEOUT_MS);
    return local.thenCombine(
        others,
        (here, there) -> {
          Map<Integer, String> merged = new java.util.TreeMap<>(there);
          merged.putAll(here);
          return Rebalancer.complete(merged, config.partitionsCount());
        });
  }

  /** This broker as its command API publishes it. */
  BrokerState state() {
    List<PartitionState> states = new ArrayList<>(opened.size());
    for (EnginePartition partition : opened) {
      states.add(
          new PartitionState(
              partition.partitionId(),
              partition.raft().role() == RaftRole.LEADER,
              partition.raft().term(),
              partition.processor().phase() != ProcessorPhase.FAILED
                  && partition.raft().failure() == null));
    }
    return new BrokerState(
        config.nodeId(),
        config.advertisedHost(),
        api.port(),
        transport.boundAddress().getPort(),
        states,
        cluster.knownBrokers(),
        topology.json());
  }

  /** The metrics in Prometheus' text format (empty unless the registry is Prometheus'). */
  private String scrape() {
    return registry instanceof PrometheusMeterRegistry prometheus ? prometheus.scrape() : "";
  }

  /** The management server's port, or -1 without one. */
  public int managementPort() {
    return management == null ? -1 : management.port();
  }

  /** The command API's port (gateways and other brokers connect to it). */
  public int commandPort() {
    return api.port();
  }

  /**
   * Waits until every partition here has a leader, and those led here process; false if {@code
   * timeout} passed.
   */
  public boolean awaitReady(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (opened.stream().allMatch(Broker::ready)) {
        return true;
      }
      Thread.sleep(10);
    }
    return false;
  }

  private static boolean ready(EnginePartition partition) {
    RaftRole role = partition.raft().role();
    if (role == RaftRole.LEADER) {
      return partition.processor().phase() == ProcessorPhase.PROCESSING;
    }
    return role == RaftRole.FOLLOWER
        && partition.raft().leaderId() > 0
        && partition.processor().phase() != ProcessorPhase.FAILED;
  }

  /** The partitions held here (for tests and operations). */
  public List<EnginePartition> partitions() {
    return List.copyOf(opened);
  }

  /** The gateway's port, or -1 without a gateway. */
  public int gatewayPort() {
    return gateway == null ? -1 : gateway.port();
  }

  /** The embedded gateway's REST port, or -1 without a gateway or with gateway.rest.enabled off. */
  public int restPort() {
    return gateway == null ? -1 : gateway.restPort();
  }

  /** Starts {@code gateway}'s REST API; a port that cannot be bound names gateway.rest.port. */
  static void startRest(Gateway gateway, BrokerConfig config, MeterRegistry registry) {
    ListenFailedException.listen(
        "gateway.rest.port",
        config.gateway().rest().host(),
        config.gateway().rest().port(),
        () -> {
          gateway.startRest(registry, HistoryDefaults.location(config.exporters()));
          return gateway;
        });
  }

  /** The embedded gateway's job streams and parked requests, or null without a gateway. */
  GatewayJobStreams gatewayJobStreams() {
    return gateway == null ? null : gateway.jobStreams();
  }

  public BrokerConfig config() {
    return config;
  }

  /**
   * Says why the history store is off where it is on by default: a cluster with no shared database.
   */
  private static void logHistoryStore(BrokerConfig config) {
    boolean running = config.exporters().stream().anyMatch(e -> e.id().equals(HistoryDefaults.ID));
    if (running || !config.historyStore()) {
      return; // on: the exporter names its database when it opens; off: as configured
    }
    LOG.info(
        "The history store is off: in a cluster of {} brokers it needs a database they share;"
            + " set exporters.history.args.url (PostgreSQL: docs/history.md), or"
            + " exporting.history.enabled: false to silence this",
        config.clusterSize());
  }

  /**
   * The configured exporters as loaded and configured at start (each partition's director runs
   * instances of its own; see {@link EnginePartition#director()}).
   */
  public List<LoadedExporter> exporters() {
    return List.copyOf(exporters);
  }

  /**
   * Stops accepting requests, then closes the partitions (flushing state), Raft and RocksDB, and
   * releases {@code data.directory}.
   */
  @Override
  public void close() {
    scaling.close(); // first: no replica opens or drops while the rest closes
    if (gateway != null) {
      gateway.close();
    }
    if (management != null) {
      management.close();
    }
    cluster.close();
    if (api != null) {
      api.close();
    }
    for (EnginePartition partition : opened) {
      try {
        partition.close();
        LOG.info("Partition {} closed", partition.partitionId());
      } catch (RuntimeException e) {
        LOG.warn("Partition {} did not close cleanly", partition.partitionId(), e);
      }
    }
    try {
      raft.close();
      resources.close();
      resourceMetrics.close();
      backups.close();
      if (clusterTls != null) {
        clusterTls.close();
      }
    } finally {
      exporters.forEach(LoadedExporter::close);
      dataLock.close(); // last: the data is free for another broker only once all is closed
    }
  }
}
