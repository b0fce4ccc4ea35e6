package io.tern.raft.sim;

import io.tern.raft.RaftEntry;
import io.tern.raft.RaftRole;
import io.tern.raft.Ready;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Raft's safety properties (Raft figure 3), checked as the simulation runs:
 *
 * <ul>
 *   <li>election safety: at most one leader per term;
 *   <li>log matching: two logs with an entry of the same index and term are identical up to it;
 *   <li>committed entries never change: every member that commits index i commits the same entry;
 *   <li>leader completeness: a new leader's log holds every committed entry.
 * </ul>
 *
 * The last two hold only for safe flush modes; unsafe modes may lose acknowledged entries by
 * design: there a violation of them is recorded ({@link #committedEntryLost()}) instead of failing.
 */
final class SafetyChecker {
  private static final int FULL_LOG_CHECK_EVERY = 32;

  private final boolean checkDurability;
  private final Map<Long, Integer> leaderOfTerm = new HashMap<>();
  private final Map<Long, RaftEntry> committed = new HashMap<>();
  private long checks;
  private boolean committedEntryLost;
  private long snapshotInstalls;

  SafetyChecker(boolean checkDurability) {
    this.checkDurability = checkDurability;
  }

  void onReady(int id, Ready ready, SimLog log, long now) {
    if (ready.role() != RaftRole.LEADER) {
      return;
    }
    Integer previous = leaderOfTerm.putIfAbsent(ready.term(), id);
    if (previous != null && previous != id) {
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

  void onCommit(int id, SimLog log, long fromExclusive, long toInclusive) {
    for (long index = fromExclusive + 1; index <= toInclusive; index++) {
      RaftEntry entry = log.entry(index);
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

  /**
   * A member installed a snapshot up to {@code index}: its state must be exactly the data of the
   * committed application entries up to there.
   */
  void onSnapshotInstalled(int id, long index, List<Long> state) {
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

  static final class SafetyViolation extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SafetyViolation(String message) {
      super(message);
    }
  }
}
