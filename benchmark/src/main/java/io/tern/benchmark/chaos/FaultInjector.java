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
  private final java.time.Duration slowLinkDelay;
  private final java.nio.file.Path diskFullDir;
  private final java.nio.file.FileStore diskFullStore;
  private boolean linksFaulted;
  private boolean diskFilled;

  FaultInjector(
      LocalCluster cluster,
      ClusterProbe probe,
      int partitions,
      Random random,
      java.time.Duration slowLinkDelay,
      java.nio.file.Path diskFullDir) {
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
    this.partitions = partitions;
    this.random = random;
  }

  /** Whether broker {@code node} runs and is not paused. */
  boolean usable(int node) {
    return !killed.contains(node) && !paused.contains(node);
  }

  /**
   * The brokers neither killed nor paused, nor cut off: the ones that must elect leaders while the
   * fault lasts. (Clients still use a cut-off broker's gateway, which reaches the others.)
   */
  List<Integer> upNodes() {
    return IntStream.range(0, cluster.size())
        .filter(node -> usable(node) && !isolated.contains(node))
        .boxed()
        .toList();
  }

  /** Injects {@code fault}; returns what was done, for the history. */
  String inject(Fault fault) throws IOException, InterruptedException {
    switch (fault) {
      case KILL_RANDOM -> {
        int node = random.nextInt(cluster.size());
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
        for (int node = 0; node < cluster.size(); node++) {
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
        int node = random.nextInt(cluster.size());
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
        List<Integer> others =
            IntStream.range(0, cluster.size()).filter(other -> other != node).boxed().toList();
        cut(List.of(node), others);
        return "Raft links of broker " + node + " (leader of partition " + partition + ") cut";
      }
      case SPLIT -> {
        int partition = 1 + random.nextInt(partitions);
        int leader = leaderOr(partition);
        List<Integer> minority = new java.util.ArrayList<>(List.of(leader));
        List<Integer> rest = new java.util.ArrayList<>(allNodes());
        rest.remove(Integer.valueOf(leader));
        java.util.Collections.shuffle(rest, random);
        while (minority.size() < (cluster.size() - 1) / 2) {
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
        List<Integer> others =
            IntStream.range(0, cluster.size()).filter(other -> other != node).boxed().toList();
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
    return cluster.size() - 1;
  }

  /**
   * Continues the paused broker, restarts the killed ones, mends cut and slow links, and empties
   * the full disk. Returns what the heal found beyond the fault (a broker that exited while its
   * disk was full, restarted), or null.
   */
  String heal() throws IOException, InterruptedException {
    String found = null;
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
      for (int node = 0; node < cluster.size(); node++) {
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
    if (!problems.isEmpty()) {
      found = (found == null ? "" : found + "; ") + String.join("; ", problems);
    }
    return found;
  }

  /** After the heal, once the cluster recovered: the restarted brokers take requests again. */
  void recovered() {
    killed.clear();
  }

  /** The brokers that run again after {@link #heal} (not paused and, if restarted, recovered). */
  List<Integer> allNodes() {
    return IntStream.range(0, cluster.size()).boxed().toList();
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
