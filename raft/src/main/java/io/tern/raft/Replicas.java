package io.tern.raft;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The leader's {@link Progress} for every member it sends entries to: the voters and learners of
 * the configuration in force, and a member it has just removed, until that member acknowledges the
 * entry that removes it. Without that last one a removed member would never hear of its removal
 * (the leader stops sending at once) and would campaign, in vain, until stopped; the departing
 * member counts for nothing (neither commit nor check-quorum look at it). One departing member at
 * most: changes are made one at a time, and the next change forgets it.
 */
final class Replicas {
  private final int maxInflight;
  private final Map<Integer, Progress> progress = new HashMap<>();
  private int departing = RaftNode.NO_LEADER;
  private long departingAt;

  Replicas(int maxInflight) {
    this.maxInflight = maxInflight;
  }

  /** The progress of {@code member}, or null if the leader sends it nothing. */
  Progress get(int member) {
    return progress.get(member);
  }

  /** The removed member still being told of its removal, or {@link RaftNode#NO_LEADER}. */
  int departing() {
    return departing;
  }

  /** A new leader: every peer is probed from {@code nextIndex}. */
  void reset(int[] peers, long nextIndex) {
    clear();
    for (int peer : peers) {
      progress.put(peer, new Progress(nextIndex, maxInflight));
    }
  }

  /** No longer leading. */
  void clear() {
    progress.clear();
    departing = RaftNode.NO_LEADER;
  }

  /**
   * The configuration in force became {@code membership} by the entry at {@code changeIndex}: new
   * members are probed from {@code nextIndex}, the member it removes (if any) departs, an earlier
   * departing member is forgotten.
   */
  void onMembershipChanged(Membership membership, int[] peers, long changeIndex, long nextIndex) {
    int removed = RaftNode.NO_LEADER;
    for (int member : progress.keySet()) {
      if (!membership.contains(member) && member != departing) {
        removed = member;
      }
    }
    int keep = removed;
    progress.keySet().removeIf(member -> !membership.contains(member) && member != keep);
    departing = removed;
    departingAt = changeIndex;
    for (int peer : peers) {
      progress.putIfAbsent(peer, new Progress(nextIndex, maxInflight));
    }
  }

  /**
   * After an acknowledgement from {@code member}: if it is the departing one and now holds the
   * entry that removes it, forget it. Returns true if it was forgotten.
   */
  boolean departedOnAcknowledgement(int member) {
    if (member != departing || progress.get(member).matchIndex < departingAt) {
      return false;
    }
    progress.remove(member);
    departing = RaftNode.NO_LEADER;
    return true;
  }

  /** Every member's progress, by id, for diagnostics. */
  Map<Integer, Progress> byMember() {
    return new TreeMap<>(progress);
  }
}
