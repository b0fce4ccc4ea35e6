package io.tern.raft.sim;

import io.tern.raft.ConfigChange;
import io.tern.raft.HardState;
import io.tern.raft.Member;
import io.tern.raft.Membership;
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
 *
 * <p>The group's membership changes too: the schedule adds members (as learners, promoted once
 * caught up), removes them (the leader too, which hands leadership on first), replaces them and
 * gives them new priorities, one change at a time, while messages are lost and members crash or are
 * cut off. Members outside the bootstrap group are spares that start (with an empty disk) when
 * first added; a removed member keeps running, as a broker would until told to drop its replica, so
 * that a member that never learned of its removal is part of every run.
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

  /** A membership change is tried after one proposal in this many (and on 2% of the steps). */
  private static final int MEMBERSHIP_CHANGE_ONE_IN_PROPOSALS = 3;

  /** Membership plans (add, remove, replace) the healed group carries out before converging. */
  private static final int HEALED_MEMBERSHIP_PLANS = 2;

  /** Members that are not in the bootstrap group and may join later. */
  private static final int SPARE_MEMBERS = 2;

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

  /** The membership changes being made, in order: one plan (add, remove, replace) at a time. */
  private final List<ConfigChange> plan = new ArrayList<>();

  private long configChangesAccepted;
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
    // A third of the seeds send snapshots only for compacted entries, a third whenever a follower
    // probes below the latest snapshot, a third past a few entries (chosen from the seed, so that
    // the random sequence of every seed stays what it was).
    long preferSnapshotThreshold =
        switch ((int) Math.floorMod(seed, 3L)) {
          case 0 -> Long.MAX_VALUE;
          case 1 -> 0;
          default -> 20;
        };
    this.config = new RaftConfig(10, 1, 3, 4 * 1024, true, true, true, preferSnapshotThreshold);
    for (int id = 1; id <= size; id++) {
      group.add(new Member(id, size - id + 1));
    }
    this.checker = new SafetyChecker(flushMode.safe(), Membership.ofVoters(group));
    for (Member member : group) {
      SimNode node = new SimNode(member.id());
      nodes.put(member.id(), node);
      node.start();
    }
    for (int id = size + 1; id <= size + SPARE_MEMBERS; id++) {
      SimNode spare = new SimNode(id);
      spare.down = true; // started when first added
      nodes.put(id, spare);
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

    /** Started at least once: a spare is not until it is added to the group. */
    boolean started;

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
      started = true;
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
          checker.onSnapshotInstalled(
              id, appliedCommit, state, ready.installedSnapshot().membership());
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
      snapshots.put(
          appliedCommit,
          log.term(appliedCommit),
          encodeState(state),
          raft.membershipAt(appliedCommit));
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
    } else if (choice < 88) {
      proposeOnLeader();
    } else if (choice < 90) {
      changeMembership();
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
        // The fault phase is short of leaders: most changes are tried while there is one.
        if (random.nextInt(MEMBERSHIP_CHANGE_ONE_IN_PROPOSALS) == 0) {
          changeMembership();
        }
        return;
      }
    }
  }

  /**
   * Makes the next change of the current plan on the leader, or plans one: add a member (as a
   * learner, then promote it), remove one, or replace a voter (add, promote, remove). A refused
   * change is retried on a later step; a plan that no longer fits the configuration (a new leader
   * truncated a step of it) is dropped.
   */
  private void changeMembership() {
    SimNode leader = leader();
    if (leader == null) {
      return;
    }
    Membership current = leader.raft.membership();
    if (plan.isEmpty()) {
      planChange(current);
    }
    if (plan.isEmpty()) {
      return;
    }
    ConfigChange change = plan.get(0);
    ConfigChange.Result result = leader.raft.proposeConfigChange(change);
    trace(() -> "config change " + change + " on " + leader.raft + " -> " + result);
    switch (result.status()) {
      case ACCEPTED -> {
        plan.remove(0);
        configChangesAccepted++;
        SimNode member = nodes.get(change.member().id());
        if (change.kind() == ConfigChange.Kind.ADD_LEARNER && !member.started) {
          member.start(); // a new broker comes up with an empty disk
          member.drive();
        }
      }
      case INVALID -> plan.clear();
      default -> {
        // not now (a change in flight, a learner behind, leadership moving): retry later
      }
    }
    leader.drive();
  }

  private void planChange(Membership current) {
    List<Integer> outside = new ArrayList<>();
    for (int id : nodes.keySet()) {
      if (!current.contains(id)) {
        outside.add(id);
      }
    }
    List<Member> voters = current.voters();
    Member anyVoter = voters.get(random.nextInt(voters.size()));
    int roll = random.nextInt(5);
    if (roll == 4) {
      // A new priority for any member, the leader too (rebalancing after a cluster change).
      List<Member> members = new ArrayList<>(voters);
      members.addAll(current.learners());
      Member member = members.get(random.nextInt(members.size()));
      int priority = 1 + random.nextInt(group.size());
      plan.add(
          ConfigChange.setPriority(
              member.id(), priority == member.priority() ? priority + 1 : priority));
    } else if (!current.learners().isEmpty() && roll == 0) {
      Member learner = current.learners().get(random.nextInt(current.learners().size()));
      plan.add(
          random.nextBoolean()
              ? ConfigChange.promote(learner.id())
              : ConfigChange.remove(learner.id()));
    } else if (!outside.isEmpty() && roll == 1) {
      Member joining = newMember(outside);
      plan.add(ConfigChange.addLearner(joining));
      plan.add(ConfigChange.promote(joining.id()));
    } else if (voters.size() > 2 && roll == 2) {
      plan.add(ConfigChange.remove(anyVoter.id()));
    } else if (!outside.isEmpty()) {
      Member joining = newMember(outside);
      plan.add(ConfigChange.addLearner(joining));
      plan.add(ConfigChange.promote(joining.id()));
      plan.add(ConfigChange.remove(anyVoter.id()));
    }
  }

  private Member newMember(List<Integer> outside) {
    return new Member(
        outside.get(random.nextInt(outside.size())), 1 + random.nextInt(group.size()));
  }

  private void injectFault() {
    int roll = random.nextInt(1000);
    if (roll < crashPerMille * 100) {
      List<SimNode> all = nodes.values().stream().filter(n -> n.started).toList();
      SimNode victim = all.get(random.nextInt(all.size()));
      if (victim.down) {
        victim.start();
        victim.drive();
      } else if (countDown() < all.size() - 1 || !flushMode.safe() || random.nextBoolean()) {
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
    return nodes.values().stream().filter(n -> n.started && n.down).count();
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
      if (node.down && node.started) {
        node.start();
        node.drive();
      }
    }
  }

  /**
   * Runs the healed group until it has finished its membership changes (the plan left from the
   * fault phase and {@link #HEALED_MEMBERSHIP_PLANS} more: the fault phase seldom has a leader long
   * enough for a whole replacement) and a leader commits a new entry on every member of its
   * committed configuration, whose logs are all equal. Returns null on success, else what did not
   * converge.
   */
  String runUntilConverged(int maxTicks) {
    long marker = -1;
    int plansLeft = HEALED_MEMBERSHIP_PLANS;
    for (int tick = 0; tick < maxTicks; tick++) {
      if (checker.committedEntryLost()) {
        // An unsafe flush mode lost acknowledged entries: the group may never agree again (a
        // member holding them rejects the new leader's log for good), which the test accepts.
        // Spinning on for the remaining ticks would cost seconds per seed and check nothing new.
        return "an unsafe flush mode lost acknowledged entries";
      }
      tickAll();
      for (int i = 0; i < 20 && !network.isEmpty(); i++) {
        deliverDue();
      }
      checker.checkLogs(liveLogs());
      if (!plan.isEmpty() || (plansLeft > 0 && leader() != null)) {
        if (plan.isEmpty()) {
          plansLeft--;
        }
        changeMembership();
      }
      SimNode leader = leader();
      // Propose again now and then: a marker proposed under an earlier leader may have been
      // replaced (unsafe modes can lose it, and any leader change may truncate it).
      if (leader != null && (marker < 0 || tick % 100 == 99)) {
        byte[] data = ByteBuffer.allocate(8).putLong(++proposals).array();
        marker = leader.raft.propose(proposals, data);
        leader.drive();
      }
      if (marker > 0
          && leader != null
          && plan.isEmpty()
          && plansLeft == 0
          && !leader.raft.configChangePending()
          && converged(leader, marker)) {
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
      if (target.down) {
        continue; // a spare never added
      }
      trace(() -> "deliver " + inFlight.message() + " to " + target.raft);
      target.raft.step(inFlight.message());
      target.drive();
    }
  }

  /**
   * Every member of the leader's configuration committed the marker, and their logs end at the same
   * entry and agree. Members removed from it are left out: they may never hear of it.
   */
  private boolean converged(SimNode leader, long marker) {
    SimLog reference = null;
    Membership members = leader.raft.membership();
    for (SimNode node : nodes.values()) {
      if (!members.contains(node.id)) {
        continue;
      }
      if (node.down || node.raft.commitIndex() < marker) {
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

  /**
   * The leader of the highest term: a deposed leader cut off from the others may still think it
   * leads.
   */
  private SimNode leader() {
    SimNode leader = null;
    for (SimNode node : nodes.values()) {
      if (!node.down
          && node.raft.role() == RaftRole.LEADER
          && (leader == null || node.raft.term() > leader.raft.term())) {
        leader = node;
      }
    }
    return leader;
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

  long configChangesAccepted() {
    return configChangesAccepted;
  }

  long configChangesCommitted() {
    return checker.configChangesCommitted();
  }

  long priorityChangesCommitted() {
    return checker.priorityChangesCommitted();
  }
}
