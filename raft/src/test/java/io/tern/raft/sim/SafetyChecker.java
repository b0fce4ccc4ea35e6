package io.tern.raft.sim;

import io.tern.raft.Membership;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftRole;
import io.tern.raft.Ready;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Raft's safety properties (Raft figure 3), checked as the simulation runs:
 *
 * <ul>
 *   <li>election safety: at most one leader per term, whichever configuration each member is in
 *       (the map of leaders is global, over every member that ever ran);
 *   <li>log matching: two logs with an entry of the same index and term are identical up to it;
 *   <li>committed entries never change: every member that commits index i commits the same entry;
 *   <li>leader completeness: a new leader's log holds every committed entry, so no committed entry
 *       is lost by a membership change either;
 * </ul>
 *
 * and for membership changes:
 *
 * <ul>
 *   <li>a leader, candidate or pre-candidate is a voter of the configuration in force on it
 *       (learners and removed members never campaign);
 *   <li>at most one change in flight: a leader never holds a configuration entry it has not
 *       committed followed by another one;
 *   <li>configurations are applied in order: each committed configuration differs from the one
 *       committed before it by exactly one single-member change, and a snapshot carries the
 *       configuration committed as of its index.
 * </ul>
 *
 * The last two, and election safety, hold only for safe flush modes; unsafe modes may lose
 * acknowledged entries by design, configuration entries among them, after which two majorities need
 * not meet: there a violation of them is recorded ({@link #committedEntryLost()}) instead of
 * failing.
 */
final class SafetyChecker {
  private static final int FULL_LOG_CHECK_EVERY = 32;

  private final boolean checkDurability;
  private final Membership bootstrap;
  private final Map<Long, Integer> leaderOfTerm = new HashMap<>();

  /** Committed configuration entries by index: the order in which configurations apply. */
  private final TreeMap<Long, Membership> committedConfigs = new TreeMap<>();

  /** Per leader: the last index whose entries were scanned for configuration entries. */
  private final Map<Integer, Long> scannedUpTo = new HashMap<>();

  /** Per leader: its last configuration entry seen, by index. */
  private final Map<Integer, Long> lastConfigIndex = new HashMap<>();

  private final Map<Long, RaftEntry> committed = new HashMap<>();
  private long checks;
  private boolean committedEntryLost;
  private long snapshotInstalls;
  private long priorityChangesCommitted;

  SafetyChecker(boolean checkDurability, Membership bootstrap) {
    this.checkDurability = checkDurability;
    this.bootstrap = bootstrap;
  }

  void onReady(int id, Ready ready, SimLog log, long now) {
    if (ready.role() != RaftRole.FOLLOWER && !ready.membership().isVoter(id)) {
      throw new SafetyViolation(
          "member "
              + id
              + " is "
              + ready.role()
              + " in term "
              + ready.term()
              + " but no voter of "
              + ready.membership());
    }
    if (ready.role() != RaftRole.LEADER) {
      scannedUpTo.remove(id);
      lastConfigIndex.remove(id);
      return;
    }
    if (!ready.membership().isVoter(id)) {
      throw new SafetyViolation(
          "leader " + id + " of term " + ready.term() + " is not a voter of " + ready.membership());
    }
    checkOneChangeInFlight(id, ready, log);
    Integer previous = leaderOfTerm.putIfAbsent(ready.term(), id);
    if (previous != null && previous != id) {
      if (!checkDurability) {
        // Terms and votes are always durable, so two leaders of one term had two majorities that
        // do not meet: only configurations that an unsafe mode lost from the logs allow that (a
        // member that lost every entry is back in the bootstrap group, while others count votes
        // in the group those entries had made). Seed 5558 (flush off) found it.
        committedEntryLost = true;
        return;
      }
      throw new SafetyViolation(
          "election safety: members " + previous + " and " + id + " lead term " + ready.term());
    }
    if (previous == null) {
      for (Map.Entry<Long, RaftEntry> entry : committed.entrySet()) {
        long index = entry.getKey();
        if (index < log.firstIndex()) {
          continue; // compacted: the leader's snapshot covers it (checked when installed)
        }
        if (index > log.lastIndex() || !log.entry(index).equals(entry.getValue())) {
          if (!checkDurability) {
            committedEntryLost = true;
            return;
          }
          throw new SafetyViolation(
              "leader completeness: new leader "
                  + id
                  + " of term "
                  + ready.term()
                  + " lacks committed entry "
                  + entry.getValue()
                  + " (its log holds ["
                  + log.firstIndex()
                  + ", "
                  + log.lastIndex()
                  + "], term there "
                  + log.term(index)
                  + ")");
        }
      }
    }
  }

  /**
   * Scans what the leader appended since its last ready: a configuration entry of its term may
   * follow another only once that one is committed. Checked when seen, with the commit index then,
   * which only grows: a leader that appended two changes at once is caught before it could commit
   * the first. Entries of earlier terms are left out: a leader restarted since knows a commit index
   * lower than the one they were appended under.
   */
  private void checkOneChangeInFlight(int id, Ready ready, SimLog log) {
    long from = Math.max(log.firstIndex(), scannedUpTo.getOrDefault(id, ready.commitIndex()) + 1);
    for (long index = from; index <= log.lastIndex(); index++) {
      RaftEntry entry = log.entry(index);
      if (entry.type() != RaftEntry.Type.CONFIG) {
        continue;
      }
      Long previous = lastConfigIndex.put(id, index);
      if (entry.term() == ready.term()
          && previous != null
          && previous < index
          && previous > ready.commitIndex()) {
        throw new SafetyViolation(
            "one change at a time: leader "
                + id
                + " holds configuration entries "
                + previous
                + " and "
                + index
                + " above its commit index "
                + ready.commitIndex());
      }
    }
    scannedUpTo.put(id, log.lastIndex());
  }

  void onCommit(int id, SimLog log, long fromExclusive, long toInclusive) {
    for (long index = fromExclusive + 1; index <= toInclusive; index++) {
      RaftEntry entry = log.entry(index);
      if (entry.type() == RaftEntry.Type.CONFIG && !committed.containsKey(index)) {
        onConfigCommitted(index, entry.membership());
      }
      RaftEntry known = committed.putIfAbsent(index, entry);
      if (known != null && !known.equals(entry)) {
        if (!checkDurability) {
          committedEntryLost = true;
          committed.put(index, entry);
          continue;
        }
        throw new SafetyViolation(
            "committed entry changed: member "
                + id
                + " commits "
                + entry
                + " but "
                + known
                + " was");
      }
    }
  }

  /** Configurations apply in order, each one single-member change from the one before. */
  private void onConfigCommitted(long index, Membership membership) {
    Map.Entry<Long, Membership> before = committedConfigs.lowerEntry(index);
    Map.Entry<Long, Membership> after = committedConfigs.higherEntry(index);
    Membership previous = before == null ? bootstrap : before.getValue();
    if (!singleChange(previous, membership)
        || (after != null && !singleChange(membership, after.getValue()))) {
      if (!checkDurability) {
        committedEntryLost = true; // an unsafe mode lost a committed configuration entry
        committedConfigs.put(index, membership);
        return;
      }
      throw new SafetyViolation(
          "configurations out of order: "
              + withPriorities(membership)
              + " committed at "
              + index
              + " is not one change from "
              + withPriorities(previous)
              + (after == null
                  ? ""
                  : " and to " + withPriorities(after.getValue()) + " at " + after.getKey()));
    }
    if (previous.toString().equals(membership.toString())) { // the same ids in the same roles
      priorityChangesCommitted++;
    }
    committedConfigs.put(index, membership);
  }

  /** Membership's text names ids only; a priority change needs the priorities shown. */
  private static String withPriorities(Membership membership) {
    return "voters " + membership.voters() + " learners " + membership.learners();
  }

  /**
   * {@code next} adds one learner to, promotes one learner of, or removes one member from {@code
   * previous}, or gives one member of it another priority.
   */
  private static boolean singleChange(Membership previous, Membership next) {
    int differences = 0;
    for (var member : previous.voters()) {
      differences += next.isVoter(member.id()) ? 0 : 1;
    }
    for (var member : previous.learners()) {
      differences += next.isLearner(member.id()) || next.isVoter(member.id()) ? 0 : 1;
    }
    for (var member : next.voters()) {
      // a new voter must have been a learner: nobody joins the quorum without catching up
      differences += previous.isVoter(member.id()) ? 0 : previous.isLearner(member.id()) ? 1 : 2;
    }
    for (var member : next.learners()) {
      differences += previous.isLearner(member.id()) ? 0 : previous.isVoter(member.id()) ? 2 : 1;
    }
    if (differences == 0) {
      // Same voters and learners: one member's priority changed, and nothing else.
      for (var member : next.voters()) {
        differences += previous.member(member.id()).equals(member) ? 0 : 1;
      }
      for (var member : next.learners()) {
        differences += previous.member(member.id()).equals(member) ? 0 : 1;
      }
    }
    return differences == 1;
  }

  /** The configuration committed as of {@code index}. */
  private Membership committedConfigAt(long index) {
    Map.Entry<Long, Membership> entry = committedConfigs.floorEntry(index);
    return entry == null ? bootstrap : entry.getValue();
  }

  /**
   * A member installed a snapshot up to {@code index}: its state must be exactly the data of the
   * committed application entries up to there, and its configuration the one committed there.
   */
  void onSnapshotInstalled(int id, long index, List<Long> state, Membership membership) {
    Membership expectedConfig = committedConfigAt(index);
    if (checkDurability && !expectedConfig.equals(membership)) {
      throw new SafetyViolation(
          "snapshot install: member "
              + id
              + " installed a snapshot at "
              + index
              + " with configuration "
              + membership
              + " but "
              + expectedConfig
              + " was committed there");
    }
    snapshotInstalls++;
    List<Long> expected = new ArrayList<>();
    for (long i = 1; i <= index; i++) {
      RaftEntry entry = committed.get(i);
      if (entry == null) {
        throw new SafetyViolation(
            "snapshot install: member "
                + id
                + " installed a snapshot at "
                + index
                + " but entry "
                + i
                + " was never committed");
      }
      if (entry.type() == RaftEntry.Type.APPLICATION) {
        expected.add(ByteBuffer.wrap(entry.data()).getLong());
      }
    }
    if (!expected.equals(state)) {
      if (!checkDurability) {
        committedEntryLost = true;
        return;
      }
      throw new SafetyViolation(
          "snapshot install: member "
              + id
              + " installed a snapshot at "
              + index
              + " whose state "
              + state
              + " differs from the committed entries "
              + expected);
    }
  }

  void checkLogs(Map<Integer, SimLog> logs) {
    if (++checks % FULL_LOG_CHECK_EVERY != 0) {
      return;
    }
    checkLogsNow(logs);
  }

  void checkLogsNow(Map<Integer, SimLog> logs) {
    for (Map.Entry<Integer, SimLog> a : logs.entrySet()) {
      for (Map.Entry<Integer, SimLog> b : logs.entrySet()) {
        if (a.getKey() < b.getKey()) {
          checkMatching(a.getKey(), a.getValue(), b.getKey(), b.getValue());
        }
      }
    }
  }

  private static void checkMatching(int idA, SimLog a, int idB, SimLog b) {
    long common = Math.min(a.lastIndex(), b.lastIndex());
    long start = Math.max(a.firstIndex(), b.firstIndex());
    long highestMatch = 0;
    for (long index = common; index >= start; index--) {
      if (a.term(index) == b.term(index)) {
        highestMatch = index;
        break;
      }
    }
    for (long index = start; index <= highestMatch; index++) {
      if (!a.entry(index).equals(b.entry(index))) {
        throw new SafetyViolation(
            "log matching: members "
                + idA
                + " and "
                + idB
                + " agree on the term at "
                + highestMatch
                + " but differ at "
                + index
                + ": "
                + a.entry(index)
                + " vs "
                + b.entry(index));
      }
    }
  }

  /** An unsafe flush mode lost an acknowledged entry (crash of a majority before flushing). */
  boolean committedEntryLost() {
    return committedEntryLost;
  }

  long snapshotInstalls() {
    return snapshotInstalls;
  }

  long committedCount() {
    return committed.size();
  }

  long configChangesCommitted() {
    return committedConfigs.size();
  }

  /** Of {@link #configChangesCommitted()}, those that changed a member's priority only. */
  long priorityChangesCommitted() {
    return priorityChangesCommitted;
  }

  static final class SafetyViolation extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SafetyViolation(String message) {
      super(message);
    }
  }
}
