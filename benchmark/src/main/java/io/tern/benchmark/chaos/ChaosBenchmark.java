package io.tern.benchmark.chaos;

import io.camunda.client.CamundaClient;
import io.tern.benchmark.chaos.Op.Kind;
import io.tern.benchmark.chaos.Op.Outcome;
import io.tern.benchmark.common.Progress;
import io.tern.benchmark.load.Deployments;
import io.tern.benchmark.load.LocalCluster;
import io.tern.engine.record.Keys;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code tern-benchmark chaos}: the workload of {@link ChaosWorkload} on a local cluster of broker
 * processes, with the faults of {@link Fault} injected in turn, then a settle and the {@link
 * Checker}'s verdict on the history. Each fault is held, healed, and followed by a wait until the
 * cluster recovered (every broker ready, every partition with one leader), whose duration the
 * report lists per fault.
 */
public final class ChaosBenchmark {
  /** How often the brokers are asked whether they recovered. */
  private static final Duration POLL = Duration.ofMillis(200);

  /** How often the instances not yet ended are looked up during the settle. */
  private static final Duration SETTLE_POLL = Duration.ofSeconds(1);

  private final ChaosOptions options;
  private final Progress progress;

  private ChaosBenchmark(ChaosOptions options, Progress progress) {
    this.options = options;
    this.progress = progress;
  }

  /** Runs the chaos suite; exit code 0 if the history is valid, 1 if not. */
  public static int run(String[] args) throws Exception {
    ChaosOptions options = ChaosOptions.parse(args);
    if (options == null) {
      return 0;
    }
    Checker.Result result = new ChaosBenchmark(options, new Progress()).execute();
    return result.valid() ? 0 : 1;
  }

  Checker.Result execute() throws Exception {
    Files.createDirectories(options.dir);
    progress.log(
        "chaos: seed %d, faults %s, %s of faults, then a settle of at most %s",
        options.seed, options.faults, options.duration, options.settle);
    Map<String, String> environment = options.environment();
    if (options.diskFullDir != null) {
      // The last broker keeps its data on the small file system that the disk-full fault fills.
      Path clusterDir = options.dir.resolve("cluster");
      Files.createDirectories(clusterDir);
      String name = "broker-" + (options.brokers - 1);
      Path link = clusterDir.resolve(name);
      Path onSmallDisk = options.diskFullDir.resolve(name);
      DiskFiller.release(options.diskFullDir); // a filler an aborted run left behind
      if (Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        if (!Files.isSymbolicLink(link)
            || !Files.exists(onSmallDisk)
            || !link.toRealPath().equals(onSmallDisk.toRealPath())) {
          throw new IllegalStateException(
              link
                  + " exists but is not a link to "
                  + onSmallDisk
                  + ": use a new --dir, or the --disk-full-dir of that earlier run");
        }
      } else {
        if (Files.exists(onSmallDisk)) {
          throw new IllegalStateException(
              onSmallDisk
                  + " holds an earlier run's broker data: empty "
                  + options.diskFullDir
                  + " first, so that no broker joins with another cluster's log");
        }
        Files.createDirectories(onSmallDisk);
        Files.createSymbolicLink(link, onSmallDisk);
      }
    }
    List<CamundaClient> clients = new ArrayList<>();
    try (LocalCluster cluster =
            LocalCluster.start(
                options.brokers + options.spares(),
                options.partitions,
                options.replication,
                environment.getOrDefault("TERN_RAFT_FLUSH_MODE", "sync"),
                environment,
                options.dir.resolve("cluster"),
                progress);
        History history = new History(options.dir.resolve("history.jsonl"))) {
      for (String gateway : cluster.gateways()) {
        clients.add(client(gateway));
      }
      deploy(clients.get(0));
      ClusterProbe probe =
          new ClusterProbe(
              cluster.managementAddresses(), cluster.managementAuthorization(), options.partitions);
      FaultInjector injector =
          new FaultInjector(
              cluster,
              probe,
              options.brokers,
              options.settle,
              progress,
              options.partitions,
              new Random(options.seed),
              options.slowLinkDelay,
              options.diskFullDir,
              history::now);
      try (Workload workload =
          options.messages()
              ? new MessageWorkload(clients, injector::usable, history, options.rate, options.keys)
              : new ChaosWorkload(clients, injector::usable, history, options.rate)) {
        workload.start();
        try {
          injectFaults(cluster, probe, injector, history);
        } finally {
          injector.heal(); // a failure above must not leave a broker stopped
        }
        // Load on the recovered cluster after the last fault too: new work after a restore.
        Thread.sleep(options.quiet.toMillis());
        workload.stopCreating();
        progress.log("load stopped after %d creations; settling", workload.created());
        Set<Long> active = settle(probe, history, injector.nodes());
        workload.close();
        recordEnds(history, active);
      }
      List<Op> ops = history.ops();
      Checker.Result result;
      String report;
      if (options.messages()) {
        result = MessageChecker.check(ops);
        report = ChaosReport.render(options, result, ops, MessageChecker.table(ops));
      } else {
        result = Checker.check(ops);
        report = ChaosReport.render(options, result, ops);
      }
      Files.writeString(options.dir.resolve("summary.md"), report);
      System.out.println(report);
      return result;
    } finally {
      clients.forEach(CamundaClient::close);
    }
  }

  /** Deploys the workload's processes to every partition. */
  private void deploy(CamundaClient client) throws InterruptedException {
    if (!options.messages()) {
      deploy(client, ChaosProcess.PROCESS_ID, ChaosProcess.bpmn());
      return;
    }
    for (MessageProcesses.Way way : MessageProcesses.Way.values()) {
      deploy(client, way.processId, MessageProcesses.bpmn(way));
    }
  }

  /**
   * Deploys a process to every partition, again while it fails within {@code --settle}: a loaded
   * machine can take longer than a request's timeout, and deploying the same process twice makes no
   * second version.
   */
  private void deploy(CamundaClient client, String processId, byte[] bpmn)
      throws InterruptedException {
    long deadline = System.nanoTime() + options.settle.toNanos();
    while (true) {
      try {
        Deployments.deployEverywhere(client, processId, bpmn);
        return;
      } catch (RuntimeException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        progress.log("deployment not done yet (%s); again", e.getMessage());
        Thread.sleep(POLL.toMillis());
      }
    }
  }

  private void injectFaults(
      LocalCluster cluster, ClusterProbe probe, FaultInjector injector, History history)
      throws Exception {
    Random order = new Random(options.seed);
    List<Fault> round = new ArrayList<>();
    long deadline = System.nanoTime() + options.duration.toNanos();
    int injected = 0;
    // Every listed fault once at least, however short the duration: a schedule means what it says.
    while (System.nanoTime() < deadline || injected < options.faultList.size()) {
      injected++;
      Thread.sleep(options.quiet.toMillis());
      if (round.isEmpty()) {
        round.addAll(options.faultList);
        Collections.shuffle(round, order);
      }
      Fault fault = round.remove(0);
      long start = history.now();
      String what = injector.inject(fault);
      long injectedMs = history.now() - start;
      progress.log("fault %s: %s", fault.label(), what);
      // Failover counts from the fault in place (a disk-full fault's fill takes seconds), until a
      // leader by role exists for every partition among the brokers left up: whether it
      // processes yet is what "processing again" measures, from the history.
      long inPlace = start + injectedMs;
      Long failoverMs = null;
      long healAt = System.nanoTime() + options.hold.toNanos();
      while (System.nanoTime() < healAt) {
        if (failoverMs == null
            && fault.majorityStaysUp()
            && probe.noLeader(injector.upNodes()) == null) {
          failoverMs = history.now() - inPlace;
        }
        Thread.sleep(POLL.toMillis());
      }
      long healed = history.now();
      String found = injector.heal();
      if (found != null) {
        what = what + "; " + found;
      }
      String problem = awaitRecovery(cluster, probe, injector.nodes());
      long recoveredMs = history.now() - healed;
      injector.recovered();
      Map<String, String> times = new HashMap<>(injector.times());
      times.put("recoveredMs", Long.toString(recoveredMs));
      times.put("injectedMs", Long.toString(injectedMs));
      if (failoverMs != null) {
        times.put("failoverMs", Long.toString(failoverMs));
      } else if (fault.majorityStaysUp()) {
        // No leader everywhere within the hold: the slowest failovers, not missing ones.
        times.put("failoverMs", ChaosReport.OVER_HOLD);
      }
      Op op =
          Op.of(Kind.FAULT, problem == null ? Outcome.OK : Outcome.FAIL, null)
              .withError(problem)
              .withVars(times)
              .withDetail(fault.label() + ": " + what);
      history.record(op, start);
      progress.log(
          "healed %s: %s in %d ms (failover %s)",
          fault.label(),
          problem == null ? "recovered" : "NOT recovered (" + problem + ")",
          recoveredMs,
          failoverMs == null ? (fault.majorityStaysUp() ? ">hold" : "-") : failoverMs + " ms");
    }
  }

  /** Null once the cluster recovered, else why not when {@code --settle} passed. */
  private String awaitRecovery(LocalCluster cluster, ClusterProbe probe, List<Integer> nodes)
      throws InterruptedException {
    long deadline = System.nanoTime() + options.settle.toNanos();
    String problem = "not asked yet";
    while (System.nanoTime() < deadline) {
      for (int node : nodes) {
        if (!cluster.isAlive(node)) {
          return "broker " + node + " exited; see its log under " + options.dir.resolve("cluster");
        }
      }
      problem = probe.notRecovered(nodes);
      if (problem == null) {
        return null;
      }
      Thread.sleep(POLL.toMillis());
    }
    return problem;
  }

  /** Waits until every known instance ended or {@code --settle} passed; returns the active ones. */
  private Set<Long> settle(ClusterProbe probe, History history, List<Integer> nodes)
      throws InterruptedException {
    Set<Long> active = new TreeSet<>();
    for (Op op : history.ops()) {
      if (op.instanceKey() != 0 && op.outcome() == Outcome.OK) {
        active.add(op.instanceKey());
      }
    }
    long deadline = System.nanoTime() + options.settle.toNanos();
    // After a restore, instances it may have undone in part (a publication) wait for good: the
    // checker does not ask them to end, and the settle does not wait for them.
    Set<Long> mayNeverEnd = Checker.mayNeverEnd(history.ops());
    while (!mayNeverEnd.containsAll(active) && System.nanoTime() < deadline) {
      Map<Integer, Integer> leaders = new HashMap<>();
      for (Long key : List.copyOf(active)) {
        int partition = Keys.partitionOf(key);
        Integer leader =
            leaders.computeIfAbsent(partition, p -> probe.leaderOf(p, nodes).orElse(null));
        try {
          if (leader != null && !probe.active(leader, key)) {
            active.remove(key);
          }
        } catch (IOException e) {
          leaders.remove(partition); // ask again who leads
        }
      }
      progress.log("settle: %d instances still active", active.size());
      if (!active.isEmpty()) {
        Thread.sleep(SETTLE_POLL.toMillis());
      }
    }
    return active;
  }

  private static void recordEnds(History history, Set<Long> active) {
    Set<Long> keys = new TreeSet<>();
    for (Op op : history.ops()) {
      if (op.instanceKey() != 0 && op.outcome() == Outcome.OK) {
        keys.add(op.instanceKey());
      }
    }
    for (long key : keys) {
      boolean ended = !active.contains(key);
      history.record(
          Op.of(Kind.ENDED, ended ? Outcome.OK : Outcome.FAIL, null)
              .withInstance(key)
              .withDetail(ended ? "not active" : "still active after the settle"),
          history.now());
    }
  }

  private static CamundaClient client(String gateway) {
    return CamundaClient.newClientBuilder()
        .grpcAddress(URI.create("http://" + gateway))
        .preferRestOverGrpc(false)
        .defaultRequestTimeout(ChaosWorkload.REQUEST_TIMEOUT)
        .build();
  }
}
