package io.tern.raft.sim;

import io.tern.raft.HardState;
import io.tern.raft.Member;
import io.tern.raft.RaftConfig;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftNode;
import io.tern.raft.RaftRole;
import io.tern.raft.Ready;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * A small, fully scripted group for scenario tests: messages are delivered in FIFO order only when
 * the test says so, links can be cut, and every member flushes synchronously unless told to hold
 * its disk. A transcript of role changes lets tests read like the story they check.
 */
final class ScenarioCluster {
  private final RaftConfig config;
  private final List<Member> group = new ArrayList<>();
  private final TreeMap<Integer, Node> nodes = new TreeMap<>();
  private final ArrayDeque<RaftMessage> network = new ArrayDeque<>();
  private final Set<Integer> isolated = new HashSet<>();
  private final List<String> transcript = new ArrayList<>();
  private final java.util.Map<String, Integer> deliveredCounts = new java.util.HashMap<>();
  private final java.util.Map<Class<?>, Integer> dropBudget = new java.util.HashMap<>();
  private java.util.function.Predicate<RaftMessage> dropOnce = message -> false;

  final class Node {
    final int id;
    final SimLog log = new SimLog();
    final SimSnapshotStore snapshots = new SimSnapshotStore(16);
    RaftNode raft;
    boolean holdDisk;
    private RaftRole lastRole = RaftRole.FOLLOWER;

    Node(int id, long seed) {
      this.id = id;
      raft =
          new RaftNode(
              config, id, group, log, snapshots, HardState.INITIAL, 0, 0, new Random(seed + id));
    }

    void drive() {
      while (true) {
        Ready ready = raft.ready();
        if (ready.role() != lastRole) {
          transcript.add(id + ":" + ready.role() + "@" + ready.term());
          lastRole = ready.role();
        }
        if (ready.installedSnapshot() != null) {
          transcript.add(id + ":installed snapshot@" + ready.installedSnapshot().index());
        }
        network.addAll(ready.messages());
        if (ready.persistUpTo() >= 0 && !holdDisk) {
          log.flush();
          raft.onPersisted(ready.persistUpTo());
          continue;
        }
        if (ready.messages().isEmpty()) {
          return;
        }
      }
    }

    List<RaftEntry> entries() {
      return log.snapshot();
    }
  }

  /** Snapshots are sent only for entries compaction dropped, as the scenarios were written. */
  ScenarioCluster(long seed, int... priorities) {
    this(Long.MAX_VALUE, seed, priorities);
  }

  /**
   * A follower further behind the leader's latest snapshot than {@code preferSnapshotThreshold}
   * entries gets the snapshot ({@link RaftConfig#preferSnapshotThresholdEntries()}).
   */
  static ScenarioCluster preferringSnapshots(
      long preferSnapshotThreshold, long seed, int... priorities) {
    return new ScenarioCluster(preferSnapshotThreshold, seed, priorities);
  }

  private ScenarioCluster(long preferSnapshotThreshold, long seed, int[] priorities) {
    this.config = new RaftConfig(10, 1, 3, 64 * 1024, true, true, true, preferSnapshotThreshold);
    for (int i = 0; i < priorities.length; i++) {
      group.add(new Member(i + 1, priorities[i]));
    }
    for (Member member : group) {
      nodes.put(member.id(), new Node(member.id(), seed));
    }
  }

  Node node(int id) {
    return nodes.get(id);
  }

  /** Advances every member's clock by {@code ticks}, delivering messages after each tick. */
  void tick(int ticks) {
    for (int i = 0; i < ticks; i++) {
      for (Node node : nodes.values()) {
        node.raft.tick();
        node.drive();
      }
      deliverAll();
    }
  }

  /** Delivers messages, and the messages they cause, until the network is quiet. */
  void deliverAll() {
    for (int i = 0; i < 100_000 && !network.isEmpty(); i++) {
      RaftMessage message = network.poll();
      if (isolated.contains(message.from()) || isolated.contains(message.to())) {
        continue;
      }
      if (dropOnce.test(message)) {
        continue;
      }
      Integer drops = dropBudget.get(message.getClass());
      if (drops != null && drops > 0) {
        dropBudget.put(message.getClass(), drops - 1);
        continue;
      }
      deliveredCounts.merge(message.to() + message.getClass().getSimpleName(), 1, Integer::sum);
      Node target = nodes.get(message.to());
      target.raft.step(message);
      target.drive();
    }
  }

  void isolate(int id) {
    isolated.add(id);
  }

  void reconnect(int id) {
    isolated.remove(id);
  }

  /** Ticks until some member leads, at most {@code maxTicks}; returns its id or -1. */
  int awaitLeader(int maxTicks) {
    for (int i = 0; i < maxTicks; i++) {
      Integer leader = leader();
      if (leader != null) {
        return leader;
      }
      tick(1);
    }
    Integer leader = leader();
    return leader == null ? -1 : leader;
  }

  Integer leader() {
    Integer found = null;
    for (Node node : nodes.values()) {
      if (node.raft.role() == RaftRole.LEADER && !isolated.contains(node.id)) {
        if (found == null || node.raft.term() > nodes.get(found).raft.term()) {
          found = node.id;
        }
      }
    }
    return found;
  }

  /** Starts a leadership transfer on {@code from} and lets its messages flow. */
  boolean transfer(int from, int to) {
    boolean started = nodes.get(from).raft.transferLeadership(to);
    nodes.get(from).drive();
    deliverAll();
    return started;
  }

  long propose(int id, String data) {
    Node node = nodes.get(id);
    long index =
        node.raft.propose(index(node), data.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    node.drive();
    deliverAll();
    return index;
  }

  private static long index(Node node) {
    return node.log.lastIndex() + 1;
  }

  /**
   * Member {@code id}'s state machine snapshots its committed log (the snapshot's content is the
   * entries' data, concatenated) and compacts the log up to {@code compactUpTo}.
   */
  void snapshot(int id, long compactUpTo) {
    Node node = nodes.get(id);
    long index = node.raft.commitIndex();
    java.io.ByteArrayOutputStream content = new java.io.ByteArrayOutputStream();
    for (long i = node.log.firstIndex(); i <= index; i++) {
      content.writeBytes(node.log.entry(i).data());
    }
    node.snapshots.put(
        index, node.log.term(index), content.toByteArray(), node.raft.membershipAt(index));
    node.raft.onSnapshotTaken(index, compactUpTo);
  }

  /**
   * Starts member {@code id}, which is not in the bootstrap group: an empty disk, waiting to be
   * added by the leader.
   */
  Node join(int id, long seed) {
    Node node = new Node(id, seed);
    nodes.put(id, node);
    return node;
  }

  /** Proposes a membership change on {@code leader} and lets its messages flow. */
  io.tern.raft.ConfigChange.Result change(int leader, io.tern.raft.ConfigChange change) {
    io.tern.raft.ConfigChange.Result result = nodes.get(leader).raft.proposeConfigChange(change);
    nodes.get(leader).drive();
    deliverAll();
    return result;
  }

  /** Messages delivered to {@code id} so far, by type name (for flow-control stories). */
  int delivered(int id, Class<? extends RaftMessage> type) {
    return deliveredCounts.getOrDefault(id + type.getSimpleName(), 0);
  }

  /**
   * Drops each message {@code rule} accepts (a stateful rule can drop a given message just once);
   * replaces the previous rule.
   */
  void drop(java.util.function.Predicate<RaftMessage> rule) {
    dropOnce = rule;
  }

  /** Drops the next {@code count} messages of {@code type} on the network. */
  void dropNext(Class<? extends RaftMessage> type, int count) {
    dropBudget.put(type, count);
  }

  List<String> transcript() {
    return transcript;
  }
}
