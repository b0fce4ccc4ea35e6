package io.tern.engine.broker;

import io.micrometer.core.instrument.MeterRegistry;
import io.tern.engine.cluster.BrokerMessages.BrokerAddress;
import io.tern.engine.cluster.BrokerMessages.BrokerState;
import io.tern.engine.cluster.BrokerMessages.MembershipAnswer;
import io.tern.engine.cluster.BrokerMessages.MembershipRequest;
import io.tern.engine.cluster.BrokerMessages.PartitionState;
import io.tern.engine.cluster.ClusterClient;
import io.tern.engine.scaling.Coordinator;
import io.tern.engine.scaling.Topology;
import io.tern.engine.scaling.TopologyStore;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker's part in changing the cluster (docs/scaling.md): it keeps its copy of the topology up
 * to date from the other brokers' states, hosts the replicas the topology places here (opening one
 * a change adds, dropping one a change moved away), gets to know brokers that announce themselves
 * once the topology lists them, answers membership requests for the partitions it leads, and runs
 * the {@link Coordinator} (which acts only on the coordinating broker).
 */
final class ClusterScaling implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterScaling.class);

  /** The broker's replicas, opened and dropped on the reconciling thread. */
  interface Replicas {
    Set<Integer> hosted();

    void open(int partitionId);

    void drop(int partitionId);
  }

  private final int self;
  private final TopologyStore store;
  private final ClusterClient cluster;
  private final PartitionMembership membership;
  private final Replicas replicas;
  private final Coordinator coordinator;
  private final ClusterEndpoint endpoint;
  private final Map<Integer, BrokerAddress> announced = new ConcurrentHashMap<>();

  /** Opens and drops replicas one at a time, away from the threads that hear of a topology. */
  private final ExecutorService reconciling =
      Executors.newSingleThreadExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "replica-reconciler");
            thread.setDaemon(true);
            return thread;
          });

  ClusterScaling(
      int self,
      TopologyStore store,
      ClusterClient cluster,
      PartitionMembership membership,
      Replicas replicas,
      MeterRegistry registry) {
    this.self = self;
    this.store = store;
    this.cluster = cluster;
    this.membership = membership;
    this.replicas = replicas;
    this.coordinator =
        new Coordinator(
            self,
            store,
            new Coordinator.Cluster() {
              @Override
              public CompletableFuture<MembershipAnswer> membership(MembershipRequest request) {
                return membership.route(request);
              }

              @Override
              public boolean hosts(int nodeId, int partitionId) {
                return ClusterScaling.this.hosts(nodeId, partitionId);
              }

              @Override
              public boolean knows(int nodeId) {
                return announced.containsKey(nodeId) || cluster.stateOf(nodeId) != null;
              }
            },
            registry);
    this.endpoint = new ClusterEndpoint(self, store::current, coordinator, cluster);
    store.addListener(this::onTopology);
    cluster.addListener(
        new ClusterClient.Listener() {
          @Override
          public void onState(BrokerState state) {
            adoptFrom(state);
          }
        });
  }

  void start() {
    onTopology(store.current()); // a join under way that names this broker, or brokers to dial
    coordinator.start();
  }

  Coordinator coordinator() {
    return coordinator;
  }

  TopologyStore store() {
    return store;
  }

  ClusterEndpoint endpoint() {
    return endpoint;
  }

  /** For the command API: a membership request for a partition led here. */
  CompletableFuture<MembershipAnswer> membership(MembershipRequest request) {
    return membership.local(request);
  }

  /** A broker subscribed naming its address: dialled back once the topology lists it. */
  void brokerSubscribed(BrokerAddress address) {
    if (address.nodeId() == self) {
      return;
    }
    BrokerAddress previous = announced.put(address.nodeId(), address);
    if (!address.equals(previous)) {
      LOG.info(
          "Broker {} announced itself at {}:{}",
          address.nodeId(),
          address.host(),
          address.commandPort());
    }
    dialListed(store.current());
  }

  private void adoptFrom(BrokerState state) {
    if (state.topology().isEmpty()) {
      return;
    }
    try {
      store.adopt(Topology.fromJson(state.topology()));
    } catch (RuntimeException e) {
      LOG.warn(
          "Broker {} sent a topology this broker cannot take: {}", state.nodeId(), e.getMessage());
    }
  }

  private void onTopology(Topology topology) {
    dialListed(topology);
    try {
      reconciling.execute(this::reconcile);
    } catch (RejectedExecutionException closing) {
      // closing: the replicas close with the broker
    }
  }

  /** Subscribes to the brokers that announced themselves and that the topology lists. */
  private void dialListed(Topology topology) {
    for (BrokerAddress address : announced.values()) {
      if (topology.lists(address.nodeId())) {
        cluster.addBroker(
            address.nodeId(),
            InetSocketAddress.createUnresolved(address.host(), address.commandPort()));
      }
    }
  }

  /** Opens the replicas the newest topology places here and drops those it moved away. */
  private void reconcile() {
    Topology topology = store.current();
    Set<Integer> wanted = topology.partitionsToHost(self);
    Set<Integer> hosted = replicas.hosted();
    for (int partitionId : wanted) {
      if (!hosted.contains(partitionId)) {
        try {
          LOG.info(
              "Partition {}: opening a replica here (topology version {})",
              partitionId,
              topology.version());
          replicas.open(partitionId);
        } catch (RuntimeException e) {
          LOG.error("Partition {}: the replica could not be opened", partitionId, e);
        }
      }
    }
    for (int partitionId : hosted) {
      if (!wanted.contains(partitionId)) {
        try {
          replicas.drop(partitionId);
        } catch (RuntimeException e) {
          LOG.error("Partition {}: the replica could not be dropped", partitionId, e);
        }
      }
    }
  }

  /** Whether {@code nodeId} says (or, for this broker, is known) to host {@code partitionId}. */
  private boolean hosts(int nodeId, int partitionId) {
    if (nodeId == self) {
      return replicas.hosted().contains(partitionId);
    }
    BrokerState state = cluster.stateOf(nodeId);
    if (state == null) {
      return false;
    }
    for (PartitionState partition : state.partitions()) {
      if (partition.partitionId() == partitionId) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    coordinator.close();
    reconciling.shutdownNow();
    try {
      reconciling.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
