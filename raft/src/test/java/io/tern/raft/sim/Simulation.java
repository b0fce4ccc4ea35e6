package io.tern.raft.sim;

import io.tern.raft.HardState;
import io.tern.raft.Member;
import io.tern.raft.RaftConfig;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftNode;
import io.tern.raft.RaftRole;
import io.tern.raft.Ready;
import io.tern.raft.SnapshotMeta;
import io.tern.raft.transport.MessageRules;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A whole Raft group in one thread: simulated time (ticks), network (loss, duplication, reordering,
 * delay, partitions) and disks (anything not flushed is lost in a crash). One seed decides every
 * choice, so a failing run replays exactly. Safety is checked after every step; {@link #heal()}
 * then {@link #runUntilConverged(int)} checks liveness.
 */
final class Simulation {
  /** How the simulated driver treats flushes; mirrors {@code raft.flush.mode}. */
  enum FlushMode {
    /** Flush before acknowledging; safe. */
    SYNC,
    /** Group flushes at most every few ticks; acknowledgements still wait for them; safe. */
    DELAYED,
    /** Acknowledge at once, flush later in the background; a majority crash can lose data. */
    ASYNC,
    /** Acknowledge at once, never flush; a crash loses everything unflushed. */
    OFF;

    boolean safe() {
      return this == SYNC || this == DELAYED;
    }
  }

  private static final int DELAYED_FLUSH_TICKS = 2;
  private static final int SNAPSHOT_CHUNK_BYTES = 24;
  private static final int SNAPSHOT_ONE_IN_TICKS = 40;
  private static final int MAX_COMPACTION_TAIL = 8;

  private static byte[] encodeState(List<Long> state) {
    ByteBuffer buffer = ByteBuffer.allocate(state.size() * Long.BYTES);
    state.forEach(buffer::putLong);
    return buffer.array();
  }

  private static List<Long> decodeState(byte[] data) {
    List<Long> state = new ArrayList<>();
    ByteBuffer buffer = ByteBuffer.wrap(data);
    while (buffer.remaining() >= Long.BYTES) {
      state.add(buffer.getLong());
    }
    return state;
  }

  private final Random random;
  private final FlushMode flushMode;
  private final RaftConfig config;
  private final List<Member> group = new ArrayList<>();
  private final Map<Integer, SimNode> nodes = new HashMap<>();
  private final List<InFlight> network = new ArrayList<>();
  private final Set<Long> cutLinks = new HashSet<>();
  private final SafetyChecker checker;
  private long now;
  private long steps;
  private int proposals;

  // Fault rates for the fault phase, in per-mille.
  private int dropPerMille = 100;
  private int duplicatePerMille = 30;
  private int crashPerMille = 3;
  private int partitionPerMille = 4;
  private int maxDelayTicks = 3;

  Simulation(long seed, int size, FlushMode flushMode) {
    this.random = new Random(seed);
    this.flushMode = flushMode;
    this.config = new RaftConfig(10, 1, 3, 4 * 1024, true, true, true);
    for (int id = 1; id <= size; id++) {
      group.add(new Member(id, size - id + 1));
    }
    this.checker = new SafetyChecker(flushMode.safe());
    for (Member member : group) {
      SimNode node = new SimNode(member.id());
      nodes.put(member.id(), node);
      node.start();
    }
  }

  /** One member: its core plus what its disk holds durably. */
  private final class SimNode {
    final int id;
    final SimLog log = new SimLog();
    final SimSnapshotStore snapshots = new SimSnapshotStore(SNAPSHOT_CHUNK_BYTES);

    /** The state machine: the data of every applied application entry, in order. */
    List<Long> state = new ArrayList<>();

    HardState durableHardState = HardState.INITIAL;
    RaftNode raft;
    boolean down;
    long lastDelayedFlush;
    long flushDueAt = -1;
    long appliedCommit;

    SimNode(int id) {
      this.id = id;
    }

    void start() {
      long durable = log.lastIndex();
      SnapshotMeta snapshot = snapshots.latest();
      long snapshotIndex = snapshot == null ? 0 : snapshot.index();
      state = snapshot == null ? new ArrayList<>() : decodeState(snapshots.latestData());
      raft =
          new RaftNode(
              config,
              id,
              group,
              log,
              snapshots,
              durableHardState,
              durable,
              snapshotIndex,
              new Random(random.nextLong()));
      appliedCommit = snapshotIndex;
      down = false;
      trace(() -> "start " + raft + " hard state " + durableHardState);
    }

    void crash() {
      trace(() -> "crash " + raft + " durable up to " + log.durableLastIndex());
      flushDueAt = -1;
      log.crash();
      snapshots.crash();
      down = true;
      raft = null;
    }

    void drive() {
      for (int round = 0; round < 100 && raft != null; round++) {
        Ready ready = raft.ready();
        if (ready.hardState() != null) {
          durableHardState = ready.hardState();
        }
        checker.onReady(id, ready, log, now);
        if (ready.installedSnapshot() != null) {
          state = decodeState(snapshots.latestData());
          appliedCommit = ready.installedSnapshot().index();
          checker.onSnapshotInstalled(id, appliedCommit, state);
        }
        if (ready.commitIndex() > appliedCommit) {
          checker.onCommit(id, log, appliedCommit, ready.commitIndex());
          for (long index = appliedCommit + 1; index <= ready.commitIndex(); index++) {
            RaftEntry entry = log.entry(index);
            if (entry.type() == RaftEntry.Type.APPLICATION) {
              state.add(ByteBuffer.wrap(entry.data()).getLong());
            }
          }
          appliedCommit = ready.commitIndex();
        }
        for (RaftMessage message : ready.messages()) {
          sendToNetwork(message);
        }
        if (ready.persistUpTo() < 0 || !persist(ready.persistUpTo())) {
          if (ready.messages().isEmpty() && ready.hardState() == null) {
            return;
          }
        }
      }
    }

    /**
     * Applies the flush mode; true if the core was told about new persisted entries. Safe modes
     * model a disk that takes time: the flush completes on a later tick, and a crash before then
     * loses the entries, so a core that acknowledged them early would be caught.
     */
    boolean persist(long upTo) {
      switch (flushMode) {
        case SYNC, DELAYED -> {
          if (flushDueAt < 0) {
            long earliest =
                flushMode == FlushMode.DELAYED ? lastDelayedFlush + DELAYED_FLUSH_TICKS : now;
            flushDueAt = Math.max(now, earliest) + random.nextInt(2);
          }
          return completeFlushIfDue();
        }
        case ASYNC, OFF -> {
          raft.onPersisted(upTo);
          return true;
        }
      }
      throw new AssertionError(flushMode);
    }

    private boolean completeFlushIfDue() {
      if (flushDueAt < 0 || now < flushDueAt) {
        return false;
      }
      flushDueAt = -1;
      lastDelayedFlush = now;
      log.flush();
      trace(() -> "flush " + id + " up to " + log.lastIndex());
      raft.onPersisted(log.lastIndex());
      return true;
    }

    /**
     * Now and then the state machine snapshots what it applied (if durable, as the real driver
     * flushes first) and the log is compacted, keeping a short random tail, so that lagging or
     * restarted followers need a snapshot install.
     */
    void maybeTakeSnapshot() {
      SnapshotMeta latest = snapshots.latest();
      long latestIndex = latest == null ? 0 : latest.index();
      if (random.nextInt(SNAPSHOT_ONE_IN_TICKS) != 0
          || appliedCommit <= latestIndex
          || appliedCommit > log.durableLastIndex()) {
        return;
      }
      trace(() -> "snapshot " + id + " at " + appliedCommit);
      snapshots.put(appliedCommit, log.term(appliedCommit), encodeState(state));
      raft.onSnapshotTaken(appliedCommit, appliedCommit - random.nextInt(MAX_COMPACTION_TAIL + 1));
    }

    void tick() {
      maybeTakeSnapshot();
      raft.tick();
      if (flushMode == FlushMode.ASYNC && random.nextInt(4) == 0) {
        log.flush(); // the background flusher got to it
      }
      completeFlushIfDue();
    }
  }

  private record InFlight(RaftMessage message, long deliverAt) {}

  private void sendToNetwork(RaftMessage message) {
    trace(() -> "send " + message);
    String violation = MessageRules.violation(message);
    if (violation != null) {
      // The transport would refuse it and close the connection: a correct member never sends one.
      throw new SafetyChecker.SafetyViolation(
          "member " + message.from() + " sent a message that " + violation + ": " + message);
    }
    if (cutLinks.contains(link(message.from(), message.to()))) {
      return;
    }
    if (random.nextInt(1000) < dropPerMille) {
      return;
    }
    long deliverAt = now + random.nextInt(maxDelayTicks + 1);
    network.add(new InFlight(message, deliverAt));
    if (random.nextInt(1000) < duplicatePerMille) {
      network.add(new InFlight(message, deliverAt + random.nextInt(maxDelayTicks + 1)));
    }
  }

  private static final boolean TRACE = Boolean.getBoolean("raft.sim.trace");

  /** Lazily built: the message strings would cost more than the simulation itself. */
  private void trace(Supplier<String> what) {
    if (TRACE) {
      System.out.println("t=" + now + " " + what.get());
    }
  }

  private static long link(int from, int to) {
    return ((long) from << 32) | to;
  }

  // ---------------------------------------------------------------- the loop

  /** One random step of the fault phase. */
  void step() {
    steps++;
    int choice = random.nextInt(100);
    if (choice < 45) {
      deliverSomething();
    } else if (choice < 70) {
      tickAll();
    } else if (choice < 90) {
      proposeOnLeader();
    } else {
      injectFault();
    }
    checker.checkLogs(liveLogs());
  }

  private void deliverSomething() {
    List<Integer> due = new ArrayList<>();
    for (int i = 0; i < network.size(); i++) {
      if (network.get(i).deliverAt() <= now) {
        due.add(i);
      }
    }
    if (due.isEmpty()) {
      tickAll();
      return;
    }
    // Any due message may go first: that is the reordering.
    InFlight next = network.remove((int) due.get(random.nextInt(due.size())));
    SimNode target = nodes.get(next.message().to());
    if (target.down || cutLinks.contains(link(next.message().from(), next.message().to()))) {
      return;
    }
    trace(() -> "deliver " + next.message() + " to " + target.raft);
    target.raft.step(next.message());
    target.drive();
    trace(() -> "  now " + target.raft);
  }

  private void tickAll() {
    now++;
    for (SimNode node : nodes.values()) {
      if (!node.down) {
        node.tick();
        node.drive();
      }
    }
  }

  private void proposeOnLeader() {
    for (SimNode node : nodes.values()) {
      if (!node.down && node.raft.role() == RaftRole.LEADER) {
        byte[] data = ByteBuffer.allocate(8).putLong(++proposals).array();
        long index = node.raft.propose(proposals, data);
        trace(() -> "propose on " + node.raft + " -> " + index);
        if (index > 0) {
          node.drive();
        }
        return;
      }
    }
  }

  private void injectFault() {
    int roll = random.nextInt(1000);
    if (roll < crashPerMille * 100) {
      List<SimNode> all = new ArrayList<>(nodes.values());
      SimNode victim = all.get(random.nextInt(all.size()));
      if (victim.down) {
        victim.start();
        victim.drive();
      } else if (countDown() < nodes.size() - 1 || !flushMode.safe() || random.nextBoolean()) {
        victim.crash();
      }
    } else if (roll < (crashPerMille + partitionPerMille) * 100) {
      if (!cutLinks.isEmpty() && random.nextBoolean()) {
        cutLinks.clear();
      } else {
        int a = 1 + random.nextInt(nodes.size());
        for (int b = 1; b <= nodes.size(); b++) {
          if (b != a) {
            cutLinks.add(link(a, b));
            cutLinks.add(link(b, a));
          }
        }
      }
    } else {
      // A burst of time passing with nothing delivered: a slow node or a long GC pause.
      for (int i = 0; i < 1 + random.nextInt(5); i++) {
        tickAll();
      }
    }
  }

  private long countDown() {
    return nodes.values().stream().filter(n -> n.down).count();
  }

  /** Ends the fault phase: restart everyone, reconnect everything, stop losing messages. */
  void heal() {
    cutLinks.clear();
    dropPerMille = 0;
    duplicatePerMille = 0;
    crashPerMille = 0;
    partitionPerMille = 0;
    maxDelayTicks = 1;
    for (SimNode node : nodes.values()) {
      if (node.down) {
        node.start();
        node.drive();
      }
    }
  }

  /**
   * Runs the healed group until a leader commits a new entry on every member and all logs are
   * equal. Returns null on success, else what did not converge.
   */
  String runUntilConverged(int maxTicks) {
    long marker = -1;
    for (int tick = 0; tick < maxTicks; tick++) {
      tickAll();
      for (int i = 0; i < 20 && !network.isEmpty(); i++) {
        deliverDue();
      }
      checker.checkLogs(liveLogs());
      SimNode leader = leader();
      // Propose again now and then: a marker proposed under an earlier leader may have been
      // replaced (unsafe modes can lose it, and any leader change may truncate it).
      if (leader != null && (marker < 0 || tick % 100 == 99)) {
        byte[] data = ByteBuffer.allocate(8).putLong(++proposals).array();
        marker = leader.raft.propose(proposals, data);
        leader.drive();
      }
      if (marker > 0 && converged(marker)) {
        return null;
      }
      if (leader == null) {
        marker = -1;
      }
    }
    StringBuilder state = new StringBuilder("no convergence within " + maxTicks + " ticks:");
    for (SimNode node : nodes.values()) {
      state.append(' ').append(node.raft);
    }
    return state.toString();
  }

  private void deliverDue() {
    List<InFlight> due = new ArrayList<>();
    network.removeIf(
        m -> {
          if (m.deliverAt() <= now) {
            due.add(m);
            return true;
          }
          return false;
        });
    for (InFlight inFlight : due) {
      SimNode target = nodes.get(inFlight.message().to());
      trace(() -> "deliver " + inFlight.message() + " to " + target.raft);
      target.raft.step(inFlight.message());
      target.drive();
    }
  }

  /** Every member committed the marker, and all logs end at the same entry and agree. */
  private boolean converged(long marker) {
    SimLog reference = null;
    for (SimNode node : nodes.values()) {
      if (node.raft.commitIndex() < marker) {
        return false;
      }
      if (reference == null) {
        reference = node.log;
        continue;
      }
      if (reference.lastIndex() != node.log.lastIndex()) {
        return false;
      }
      long start = Math.max(reference.firstIndex(), node.log.firstIndex());
      for (long index = start; index <= reference.lastIndex(); index++) {
        if (!reference.entry(index).equals(node.log.entry(index))) {
          return false;
        }
      }
    }
    return true;
  }

  private SimNode leader() {
    for (SimNode node : nodes.values()) {
      if (!node.down && node.raft.role() == RaftRole.LEADER) {
        return node;
      }
    }
    return null;
  }

  private Map<Integer, SimLog> liveLogs() {
    Map<Integer, SimLog> logs = new HashMap<>();
    for (SimNode node : nodes.values()) {
      logs.put(node.id, node.log);
    }
    return logs;
  }

  long steps() {
    return steps;
  }

  /** See {@link SafetyChecker#committedEntryLost()}; only unsafe flush modes can get there. */
  boolean committedEntryLost() {
    return checker.committedEntryLost();
  }

  long snapshotInstalls() {
    return checker.snapshotInstalls();
  }

  long committedEntries() {
    return checker.committedCount();
  }
}
