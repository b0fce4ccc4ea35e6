package io.tern.engine.scaling;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tern.engine.cluster.BrokerMessages.MembershipAnswer;
import io.tern.engine.cluster.BrokerMessages.MembershipRequest;
import io.tern.engine.cluster.PartitionDistribution;
import io.tern.engine.scaling.Topology.Change;
import io.tern.engine.scaling.Topology.Step;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans changes of the cluster's brokers and replication factor and applies them one step at a
 * time, on the broker that is the topology's {@link Topology#coordinator()} (every broker runs one;
 * the others wait). Each round it looks at the step under way and does the next thing it needs,
 * judged from the partition leader's Raft configuration, so that a round repeated (after a restart
 * of any broker, the coordinator too, or a lost answer) does no harm:
 *
 * <ul>
 *   <li>a join waits for the joining broker to host the replica (it opens it when it sees the step
 *       in the gossiped topology), then asks the leader to add it as a learner, then to promote it
 *       once it caught up; done when it is a voter and that is committed;
 *   <li>a leave asks the leader to remove the member (a leader that is asked to remove itself hands
 *       leadership on first); done when the removal is committed. The broker then drops its replica
 *       and data when it sees the step done;
 *   <li>a priority step asks the leader to give the member its new priority; done when the
 *       configuration with it is committed.
 * </ul>
 *
 * <p>A step done is stored in a new topology version before the next begins. Metrics: {@code
 * tern.cluster.change.step} (a timer per operation, from the step's first round to its end).
 */
public final class Coordinator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);

  /** How often the step under way is looked at. */
  static final long ROUND_INTERVAL_MS = 100;

  /** How long one round waits for a leader's answer. */
  public static final long CALL_TIMEOUT_MS = 5_000;

  /** What the coordinator needs from its broker. */
  public interface Cluster {
    /**
     * Sends {@code request} to the leader of its partition, here or on another broker; answers
     * NOT_LEADER (or fails) while none is known.
     */
    CompletableFuture<MembershipAnswer> membership(MembershipRequest request);

    /** Whether broker {@code nodeId} says it hosts a replica of {@code partitionId}. */
    boolean hosts(int nodeId, int partitionId);

    /** Whether broker {@code nodeId} is known here (connected, or announced itself). */
    boolean knows(int nodeId);
  }

  /** A change refused: the status the API answers with, and why. */
  public static class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    public Refused(int status, String message) {
      super(message);
      this.status = status;
    }

    public int status() {
      return status;
    }
  }

  /**
   * A request that only the coordinating broker {@link #coordinator()} takes (409 where it is not
   * forwarded there).
   */
  public static final class NotCoordinator extends Refused {
    private static final long serialVersionUID = 1L;
    private final int coordinator;

    public NotCoordinator(int coordinator) {
      super(
          409,
          "broker "
              + coordinator
              + " coordinates changes of the cluster (the lowest node id): send this to its"
              + " management port");
      this.coordinator = coordinator;
    }

    public int coordinator() {
      return coordinator;
    }
  }

  /** A request about a change that does not exist (404). */
  public static final class RefusedNotFound extends Refused {
    private static final long serialVersionUID = 1L;

    public RefusedNotFound(String message) {
      super(404, message);
    }
  }

  /** {@code topology} with its current step applied (for the plan's expected outcome). */
  public static Topology applyStep(Topology topology) {
    return topology.withStepDone(null);
  }

  private final int self;
  private final TopologyStore store;
  private final Cluster cluster;
  private final MeterRegistry registry;
  private final ScheduledExecutorService rounds =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "cluster-coordinator");
            thread.setDaemon(true);
            return thread;
          });
  private Step timed; // the step whose time is measured (round thread only)
  private long timedSinceNs;
  private String lastWait = ""; // what the step waits for, logged when it changes

  public Coordinator(int selfNodeId, TopologyStore store, Cluster cluster, MeterRegistry registry) {
    this.self = selfNodeId;
    this.store = store;
    this.cluster = cluster;
    this.registry = registry;
  }

  public Coordinator start() {
    rounds.scheduleWithFixedDelay(
        this::round, ROUND_INTERVAL_MS, ROUND_INTERVAL_MS, TimeUnit.MILLISECONDS);
    return this;
  }

  /** Whether this broker coordinates now. */
  public boolean coordinates() {
    return store.current().coordinator() == self;
  }

  /**
   * Plans a change to {@code brokers} with {@code replicationFactor} (null: the one in force) and,
   * unless {@code dryRun}, starts applying it; returns the topology with the change as planned.
   *
   * @throws Refused when this broker does not coordinate ({@link NotCoordinator}), a change is
   *     under way, a new broker is not known, or the request does not fit (with the reason)
   */
  public synchronized Topology requestChange(
      SortedSet<Integer> brokers, Integer replicationFactor, boolean dryRun) {
    Topology topology = store.current();
    checkCoordinates(topology);
    if (topology.pendingChange() != null) {
      throw new Refused(
          409,
          "change "
              + topology.pendingChange().id()
              + " is under way: wait for it to finish or cancel it"
              + " (POST /actuator/cluster/changes/cancel)");
    }
    int factor = replicationFactor == null ? topology.replicationFactor() : replicationFactor;
    List<Step> steps;
    try {
      steps = Planner.plan(topology, brokers, factor);
    } catch (IllegalArgumentException e) {
      throw new Refused(400, e.getMessage());
    }
    List<Integer> unknown = new ArrayList<>();
    for (int node : brokers) {
      if (!topology.brokers().containsKey(node) && node != self && !cluster.knows(node)) {
        unknown.add(node);
      }
    }
    if (!unknown.isEmpty()) {
      throw new Refused(
          400,
          "broker(s) "
              + unknown
              + " are not known to the coordinator (broker "
              + self
              + "): start each with its cluster.nodeId and cluster.contactPoints naming the"
              + " brokers of the cluster, then ask again");
    }
    long id = topology.lastChange() == null ? 1 : topology.lastChange().id() + 1;
    Change change =
        new Change(
            id,
            steps.isEmpty() ? Change.Status.COMPLETED : Change.Status.IN_PROGRESS,
            Instant.now().toString(),
            null,
            List.copyOf(brokers),
            factor,
            List.of(),
            steps);
    Topology planned = topology.withChange(change);
    if (dryRun) {
      return planned;
    }
    if (steps.isEmpty()) {
      return topology; // nothing to do: no version for it
    }
    Topology stored = store.update(topology.version(), current -> current.withChange(change));
    if (stored == null) {
      throw new Refused(503, "the topology changed meanwhile; ask again");
    }
    LOG.info("Cluster change {} planned: {}", id, steps);
    rounds.execute(this::round);
    return stored;
  }

  /**
   * Cancels the change under way: the steps done stay done, the others are dropped. A join under
   * way whose broker the partition's group already counts is recorded as done, so that the broker
   * keeps the replica its group relies on; so is a priority the group has already, so that the
   * topology shows the priority in force.
   */
  public synchronized Topology cancel() {
    Topology topology = store.current();
    checkCoordinates(topology);
    if (topology.pendingChange() == null) {
      throw new Refused(404, "no change is under way");
    }
    Step step = topology.currentStep();
    Topology base = topology;
    if (step != null && step.operation() != Step.Operation.PARTITION_LEAVE) {
      MembershipAnswer answer = query(step);
      if (answer == null || answer.status().equals("NOT_LEADER")) {
        throw new Refused(
            503,
            "partition "
                + step.partitionId()
                + " has no leader to ask whether this step was made: "
                + step
                + "; try again shortly");
      }
      if (inEffect(step, answer)) {
        base = topology.withStepDone(Instant.now().toString());
      }
    }
    Topology cancelled =
        base.pendingChange() == null ? base : base.cancelled(Instant.now().toString());
    Topology next = cancelled;
    Topology stored =
        store.update(
            topology.version(),
            current ->
                new Topology(
                    current.version() + 1,
                    next.partitionsCount(),
                    next.bootstrapClusterSize(),
                    next.bootstrapReplicationFactor(),
                    next.brokers(),
                    next.lastChange(),
                    next.pendingChange()));
    if (stored == null) {
      throw new Refused(503, "the topology changed meanwhile; ask again");
    }
    LOG.warn(
        "Cluster change {} cancelled; placement now {}",
        topology.pendingChange().id(),
        stored.describePlacement());
    return stored;
  }

  private void checkCoordinates(Topology topology) {
    if (topology.coordinator() != self) {
      throw new NotCoordinator(topology.coordinator());
    }
  }

  /**
   * One look at the step under way; never throws (a failed round is tried again). Synchronized with
   * {@link #cancel}, so that a cancel never drops a step whose change a round is proposing.
   */
  synchronized void round() {
    try {
      Topology topology = store.current();
      if (topology.coordinator() != self || topology.pendingChange() == null) {
        return;
      }
      Step step = topology.currentStep();
      if (step == null) {
        return;
      }
      if (!step.equals(timed)) {
        timed = step;
        timedSinceNs = System.nanoTime();
        LOG.info("Cluster change {}: {}", topology.pendingChange().id(), step);
      }
      if (advance(step)) {
        Topology done =
            store.update(
                topology.version(), current -> current.withStepDone(Instant.now().toString()));
        if (done != null) {
          Timer.builder("tern.cluster.change.step")
              .description("how long a step of a cluster change took, from its first round")
              .tag("operation", step.operation().name())
              .register(registry)
              .record(System.nanoTime() - timedSinceNs, TimeUnit.NANOSECONDS);
          if (done.pendingChange() == null) {
            LOG.info(
                "Cluster change {} completed: {}",
                topology.pendingChange().id(),
                done.describePlacement());
          }
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("Cluster change round failed; tried again", e);
    }
  }

  /** Does the next thing {@code step} needs; returns true when it is done. */
  private boolean advance(Step step) {
    int member = memberOf(step);
    if (step.operation() == Step.Operation.PARTITION_JOIN
        && !cluster.hosts(step.brokerId(), step.partitionId())) {
      return waiting(
          "broker " + step.brokerId() + " to open its replica of partition " + step.partitionId());
    }
    MembershipAnswer answer = query(step);
    if (answer == null || answer.status().equals("NOT_LEADER")) {
      return waiting("a leader of partition " + step.partitionId());
    }
    if (answer.pending()) {
      return waiting("partition " + step.partitionId() + "'s configuration change to commit");
    }
    switch (step.operation()) {
      case PARTITION_JOIN -> {
        if (!answer.contains(member)) {
          return change(step, MembershipRequest.ADD_LEARNER);
        }
        if (answer.learners().contains(member)) {
          return change(step, MembershipRequest.PROMOTE);
        }
        return true; // a voter, committed
      }
      case PARTITION_LEAVE -> {
        if (answer.contains(member)) {
          return change(step, MembershipRequest.REMOVE);
        }
        return true; // removed, committed
      }
      case PARTITION_RECONFIGURE_PRIORITY -> {
        if (!answer.contains(member) || answer.priorityOf(member) == null) {
          // Not something a retry mends: the change waits, and can be cancelled.
          return waiting(
              answer.contains(member)
                  ? "partition "
                      + step.partitionId()
                      + "'s leader to run a version that tells priorities (upgrade it)"
                  : "broker "
                      + step.brokerId()
                      + " to be a member of partition "
                      + step.partitionId()
                      + " (it is not: cancel the change)");
        }
        if (answer.priorityOf(member) != step.priority()) {
          return change(step, MembershipRequest.SET_PRIORITY);
        }
        return true; // the priority, committed
      }
      default -> throw new IllegalStateException("unknown step " + step);
    }
  }

  /** Whether {@code answer}, a leader's configuration, shows {@code step} made already. */
  private static boolean inEffect(Step step, MembershipAnswer answer) {
    int member = memberOf(step);
    return switch (step.operation()) {
      case PARTITION_JOIN -> answer.contains(member);
      case PARTITION_LEAVE -> !answer.contains(member);
      case PARTITION_RECONFIGURE_PRIORITY ->
          Integer.valueOf(step.priority()).equals(answer.priorityOf(member));
    };
  }

  private boolean change(Step step, byte kind) {
    MembershipAnswer answer =
        call(new MembershipRequest(step.partitionId(), kind, memberOf(step), step.priority()));
    return waiting(
        "partition "
            + step.partitionId()
            + "'s leader ("
            + kindName(kind)
            + ": "
            + (answer == null ? "no answer" : answer.status())
            + ")");
  }

  private MembershipAnswer query(Step step) {
    return call(
        new MembershipRequest(step.partitionId(), MembershipRequest.QUERY, memberOf(step), 0));
  }

  private MembershipAnswer call(MembershipRequest request) {
    try {
      return cluster.membership(request).get(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (Exception e) {
      LOG.debug("membership call for partition {} failed: {}", request.partitionId(), e.toString());
      return null;
    }
  }

  /** Logs what the step waits for when that changed (not each round); returns false. */
  private boolean waiting(String what) {
    if (!what.equals(lastWait)) {
      lastWait = what;
      LOG.info("Cluster change: waiting for {}", what);
    }
    return false;
  }

  private static String kindName(byte kind) {
    return switch (kind) {
      case MembershipRequest.ADD_LEARNER -> "add learner";
      case MembershipRequest.PROMOTE -> "promote";
      case MembershipRequest.REMOVE -> "remove";
      case MembershipRequest.SET_PRIORITY -> "set priority";
      default -> "query";
    };
  }

  private static int memberOf(Step step) {
    return PartitionDistribution.memberIdOf(step.brokerId());
  }

  /** The brokers of {@code topology} plus {@code added}, for the add-one-broker API. */
  static SortedSet<Integer> with(Topology topology, int added) {
    SortedSet<Integer> brokers = new TreeSet<>(topology.brokers().keySet());
    brokers.add(added);
    return brokers;
  }

  @Override
  public void close() {
    rounds.shutdownNow();
  }
}
