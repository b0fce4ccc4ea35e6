package io.tern.benchmark.chaos;

import io.tern.benchmark.load.LocalCluster;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/**
 * Injects one {@link Fault} at a time into a local cluster and heals it: restarts the killed
 * brokers, continues the paused one. Knows which brokers are down, so that clients avoid them.
 */
final class FaultInjector {
  private final LocalCluster cluster;
  private final ClusterProbe probe;
  private final int partitions;
  private final Random random;
  private final Set<Integer> killed = ConcurrentHashMap.newKeySet();
  private final Set<Integer> paused = ConcurrentHashMap.newKeySet();
  private final Set<Integer> isolated = ConcurrentHashMap.newKeySet();

  /** Brokers beyond the cluster's own stopped after the scale fault took them out again. */
  private final Set<Integer> retired = ConcurrentHashMap.newKeySet();

  /** The brokers the cluster starts with, node ids 0 to members - 1; the others are spares. */
  private final int members;

  private final ScaleFault scale;

  /** The scale fault's growth while it is under way (until its heal), else null. */
  private ScaleFault.Change scaleUp;

  private final java.time.Duration slowLinkDelay;
  private final java.nio.file.Path diskFullDir;
  private final java.nio.file.FileStore diskFullStore;
  private boolean linksFaulted;
  private boolean diskFilled;

  /** The history's clock: the restore fault's times are on it. */
  private final java.util.function.LongSupplier clock;

  /** The backup the next heal restores (restore fault), else 0; ids only increase. */
  private long restoreBackupId;

  private long lastBackupId;

  /** What the last fault recorded beyond its start and end (the restore's checkpoint times). */
  private final java.util.Map<String, String> times = new java.util.TreeMap<>();

  /** Keys of {@link #times()}: the restore fault's moments, in ms on the history's clock. */
  static final String CHECKPOINT_ASKED = "checkpointAskedMs";

  static final String CHECKPOINT_ANSWERED = "checkpointAnsweredMs";
  static final String WIPED = "wipedMs";

  /** How long the restore fault waits for its backup to complete. */
  private static final java.time.Duration BACKUP_TIMEOUT = java.time.Duration.ofMinutes(3);

  /**
   * @param members the brokers the cluster starts with; the local cluster's others (node ids from
   *     members on) run outside the cluster until the scale fault adds them
   * @param changeTimeout the longest wait for a cluster change of the scale fault
   */
  FaultInjector(
      LocalCluster cluster,
      ClusterProbe probe,
      int members,
      java.time.Duration changeTimeout,
      io.tern.benchmark.common.Progress progress,
      int partitions,
      Random random,
      java.time.Duration slowLinkDelay,
      java.nio.file.Path diskFullDir,
      java.util.function.LongSupplier clock) {
    this.clock = clock;
    this.slowLinkDelay = slowLinkDelay;
    this.diskFullDir = diskFullDir;
    try {
      this.diskFullStore =
          diskFullDir == null ? null : java.nio.file.Files.getFileStore(diskFullDir);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    this.cluster = cluster;
    this.probe = probe;
    this.members = members;
    this.scale = new ScaleFault(probe, 0, changeTimeout, progress);
    this.partitions = partitions;
    this.random = random;
  }

  /** Whether broker {@code node} runs and is not paused. */
  boolean usable(int node) {
    return !killed.contains(node) && !paused.contains(node) && !retired.contains(node);
  }

  /** The brokers that run or are to run again: all but the spares the scale fault stopped. */
  List<Integer> nodes() {
    return IntStream.range(0, cluster.size())
        .filter(node -> !retired.contains(node))
        .boxed()
        .toList();
  }

  /**
   * The brokers neither killed nor paused, nor cut off: the ones that must elect leaders while the
   * fault lasts. (Clients still use a cut-off broker's gateway, which reaches the others.)
   */
  List<Integer> upNodes() {
    return nodes().stream().filter(node -> usable(node) && !isolated.contains(node)).toList();
  }

  /** Injects {@code fault}; returns what was done, for the history. */
  String inject(Fault fault) throws IOException, InterruptedException {
    times.clear();
    switch (fault) {
      case RESTORE -> {
        return backUp();
      }
      case SCALE -> {
        return scaleUpAndKill();
      }
      case KILL_RANDOM -> {
        int node = pick(nodes());
        kill(node);
        return "kill -9 broker " + node;
      }
      case KILL_LEADER -> {
        int partition = 1 + random.nextInt(partitions);
        int node = leaderOr(partition);
        kill(node);
        return "kill -9 broker " + node + " (leader of partition " + partition + ")";
      }
      case KILL_ALL -> {
        for (int node : nodes()) {
          kill(node);
        }
        return "kill -9 every broker";
      }
      case PAUSE -> {
        int partition = 1 + random.nextInt(partitions);
        int node = leaderOr(partition);
        signal(node, "STOP");
        paused.add(node);
        return "SIGSTOP broker " + node + " (leader of partition " + partition + ")";
      }
      case TORN_TAIL -> {
        int node = pick(nodes());
        kill(node);
        int partition = 1 + random.nextInt(partitions);
        return "kill -9 broker "
            + node
            + ", then "
            + TornTail.tear(cluster.dataDirectory(node), partition, random);
      }
      case PARTITION -> {
        int partition = 1 + random.nextInt(partitions);
        int node = leaderOr(partition);
        List<Integer> others = nodes().stream().filter(other -> other != node).toList();
        cut(List.of(node), others);
        return "Raft links of broker " + node + " (leader of partition " + partition + ") cut";
      }
      case SPLIT -> {
        int partition = 1 + random.nextInt(partitions);
        int leader = leaderOr(partition);
        List<Integer> minority = new java.util.ArrayList<>(List.of(leader));
        List<Integer> rest = new java.util.ArrayList<>(nodes());
        rest.remove(Integer.valueOf(leader));
        java.util.Collections.shuffle(rest, random);
        while (minority.size() < (nodes().size() - 1) / 2) {
          minority.add(rest.remove(0));
        }
        cut(minority, rest);
        return "split: brokers "
            + join(minority)
            + " (with the leader of partition "
            + partition
            + ") cut from brokers "
            + join(rest);
      }
      case SLOW -> {
        int partition = 1 + random.nextInt(partitions);
        int node = leaderOr(partition);
        List<Integer> others = nodes().stream().filter(other -> other != node).toList();
        long delayMs = slowLinkDelay.toMillis();
        linksFaulted = true;
        probe.post(node, "/actuator/faults/delay/" + join(others) + "/" + delayMs);
        for (int other : others) {
          probe.post(other, "/actuator/faults/delay/" + node + "/" + delayMs);
        }
        return "Raft links of broker "
            + node
            + " (leader of partition "
            + partition
            + ") slowed by "
            + delayMs
            + " ms each way";
      }
      case DISK_FULL -> {
        diskFilled = true;
        long written = DiskFiller.fill(diskFullDir, diskFullStore);
        long left = java.nio.file.Files.getFileStore(diskFullDir).getUsableSpace();
        return "disk of broker "
            + diskNode()
            + " filled ("
            + (written >> 20)
            + " MiB written, "
            + left
            + " bytes left)";
      }
      default -> throw new IllegalArgumentException("unknown fault " + fault);
    }
  }

  /** Cuts the Raft links between {@code side} and {@code others}, both ways. */
  private void cut(List<Integer> side, List<Integer> others)
      throws IOException, InterruptedException {
    isolated.addAll(side);
    linksFaulted = true;
    for (int node : side) {
      probe.post(node, "/actuator/faults/isolate/" + join(others));
    }
    for (int other : others) {
      probe.post(other, "/actuator/faults/isolate/" + join(side));
    }
  }

  /** The broker whose data the disk-full fault fills: the last one. */
  int diskNode() {
    return members - 1;
  }

  /**
   * Continues the paused broker, restarts the killed ones, mends cut and slow links, and empties
   * the full disk. Returns what the heal found beyond the fault (a broker that exited while its
   * disk was full, restarted), or null.
   */
  String heal() throws IOException, InterruptedException {
    String found = null;
    if (restoreBackupId > 0) {
      long backupId = restoreBackupId;
      restoreBackupId = 0;
      for (int node : nodes()) {
        kill(node);
      }
      times.put(WIPED, Long.toString(clock.getAsLong()));
      for (int node : nodes()) {
        cluster.wipe(node);
        String failed = cluster.restore(node, backupId);
        if (failed != null) {
          throw new IOException("bin/restore of broker " + node + " failed: " + failed);
        }
      }
      found = "every broker killed, its data deleted and restored from backup " + backupId;
    }
    if (diskFilled) {
      DiskFiller.release(diskFullDir);
      diskFilled = false;
      if (!cluster.isAlive(diskNode()) && !killed.contains(diskNode())) {
        found = "broker " + diskNode() + " exited while its disk was full; restarted";
        killed.add(diskNode());
      }
    }
    List<String> problems = new java.util.ArrayList<>();
    if (linksFaulted) {
      for (int node : nodes()) {
        if (!cluster.isAlive(node)) {
          if (!killed.contains(node)) {
            problems.add("broker " + node + " exited while its links were faulted; restarted");
            killed.add(node); // a restarted broker starts with its links whole
          }
          continue;
        }
        try {
          probe.post(node, "/actuator/faults/heal");
        } catch (IOException e) {
          problems.add("broker " + node + " did not heal its links: " + e.getMessage());
        }
      }
      isolated.clear();
      linksFaulted = false;
    }
    for (int node : List.copyOf(paused)) {
      signal(node, "CONT");
      paused.remove(node);
    }
    for (int node : List.copyOf(killed)) {
      cluster.restart(node);
    }
    if (scaleUp != null) {
      found = (found == null ? "" : found + "; ") + scaleBack();
    }
    if (!problems.isEmpty()) {
      found = (found == null ? "" : found + "; ") + String.join("; ", problems);
    }
    return found;
  }

  /**
   * Takes a backup (the restore fault's first half) and waits until it is COMPLETED; the heal wipes
   * and restores every broker from it.
   */
  private String backUp() throws IOException, InterruptedException {
    long backupId = ++lastBackupId;
    int node = upNodes().get(random.nextInt(upNodes().size()));
    long asked = clock.getAsLong();
    probe.backup(node, backupId);
    long answered = clock.getAsLong();
    times.put(CHECKPOINT_ASKED, Long.toString(asked));
    times.put(CHECKPOINT_ANSWERED, Long.toString(answered));
    long deadline = System.nanoTime() + BACKUP_TIMEOUT.toNanos();
    String state = probe.backupState(node, backupId);
    while (!state.equals("COMPLETED")) {
      if (state.equals("FAILED") || state.equals("INCOMPLETE") || System.nanoTime() > deadline) {
        throw new IOException("backup " + backupId + " is " + state + ", not COMPLETED");
      }
      Thread.sleep(200);
      state = probe.backupState(node, backupId);
    }
    restoreBackupId = backupId;
    return "backup "
        + backupId
        + " taken through broker "
        + node
        + " (checkpoint asked at "
        + asked
        + " ms, answered at "
        + answered
        + " ms) and COMPLETED; every broker is wiped and restored from it at the heal";
  }

  /** The last fault's moments beyond its start and end, as the history records them. */
  java.util.Map<String, String> times() {
    return java.util.Map.copyOf(times);
  }

  /** After the heal, once the cluster recovered: the restarted brokers take requests again. */
  void recovered() {
    killed.clear();
  }

  /**
   * The scale fault's first half: the spares (started again if an earlier scale fault stopped them)
   * are added to the cluster, and a broker is killed in the middle of a move.
   */
  private String scaleUpAndKill() throws IOException, InterruptedException {
    for (int spare : List.copyOf(retired)) {
      cluster.restart(spare);
      cluster.awaitReady(spare, java.time.Duration.ofMinutes(2));
      retired.remove(spare);
    }
    List<Integer> from = IntStream.range(0, members).boxed().toList();
    scaleUp = scale.request(nodes());
    times.put(ScaleFault.UP_CHANGE, Long.toString(scaleUp.id()));
    ScaleFault.Victim victim = scale.awaitMidMove(scaleUp);
    kill(victim.node());
    int toDo = scale.stepsToDo(scaleUp);
    times.put(ScaleFault.KILLED, Integer.toString(victim.node()));
    times.put(ScaleFault.PENDING_AT_KILL, Integer.toString(toDo));
    return String.format(
        "brokers %s -> %s, change %d of %d steps; kill -9 broker %d after %d steps, next %s;"
            + " %d steps to do after the kill",
        from,
        scaleUp.brokers(),
        scaleUp.id(),
        scaleUp.steps(),
        victim.node(),
        victim.done(),
        victim.nextStep(),
        toDo);
  }

  /**
   * The scale fault's second half, once the killed broker is started again: the growth completes,
   * the cluster shrinks back to its members, and the spares stop (only then: until the shrink
   * completed they held replicas the partitions count on).
   */
  private String scaleBack() throws IOException, InterruptedException {
    ScaleFault.Change up = scaleUp;
    scaleUp = null;
    long upMs = scale.awaitCompleted(up);
    times.put(ScaleFault.UP_MS, Long.toString(upMs));
    times.put(ScaleFault.UP_STATUS, "COMPLETED");
    List<Integer> spares = IntStream.range(members, cluster.size()).boxed().toList();
    ScaleFault.Change down = scale.request(IntStream.range(0, members).boxed().toList());
    times.put(ScaleFault.DOWN_CHANGE, Long.toString(down.id()));
    long downMs = scale.awaitCompleted(down);
    times.put(ScaleFault.DOWN_MS, Long.toString(downMs));
    times.put(ScaleFault.DOWN_STATUS, "COMPLETED");
    retired.addAll(spares); // first, so that no new request goes there
    stop(spares);
    return String.format(
        "change %d COMPLETED after %d ms; change %d to brokers %s (%d steps) COMPLETED after %d"
            + " ms; brokers %s stopped",
        up.id(), upMs, down.id(), down.brokers(), down.steps(), downMs, spares);
  }

  /** Stops {@code nodes} with SIGTERM, all at once; forcibly any not exited after 30 s. */
  private void stop(List<Integer> nodes) throws IOException, InterruptedException {
    for (int node : nodes) {
      if (cluster.isAlive(node)) {
        signal(node, "TERM");
      }
    }
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
    for (int node : nodes) {
      while (cluster.isAlive(node) && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      if (cluster.isAlive(node)) {
        cluster.kill(node);
      }
    }
  }

  private int pick(List<Integer> nodes) {
    return nodes.get(random.nextInt(nodes.size()));
  }

  private static String join(List<Integer> nodes) {
    return String.join(",", nodes.stream().map(String::valueOf).toList());
  }

  private int leaderOr(int partition) {
    return probe
        .leaderOf(partition, upNodes())
        .orElseGet(() -> upNodes().get(random.nextInt(upNodes().size())));
  }

  private void kill(int node) throws InterruptedException {
    killed.add(node); // first, so that no new request goes there
    cluster.kill(node);
  }

  private void signal(int node, String signal) throws IOException, InterruptedException {
    Process kill =
        new ProcessBuilder("kill", "-" + signal, Long.toString(cluster.pid(node)))
            .inheritIO()
            .start();
    if (kill.waitFor() != 0) {
      throw new IOException("kill -" + signal + " of broker " + node + " failed");
    }
  }
}
