package io.tern.raft;

import java.util.ArrayList;
import java.util.List;

/**
 * Which configuration is in force at each index of a member's log: the configuration as of a base
 * index (the latest snapshot's, or the bootstrap configuration at 0) and every configuration entry
 * appended after it. The latest one is in force (Raft: a member uses the newest configuration in
 * its log, committed or not), so a truncation of the log that removes configuration entries falls
 * back to the one before them, and a snapshot install replaces everything by the snapshot's.
 *
 * <p>Entries at or below the commit index never go away except by compaction, so only the base and
 * the entries above it are kept; the list is short (one change in flight at a time, compacted with
 * snapshots).
 */
final class MembershipLog {
  private record Change(long index, Membership membership) {}

  private long baseIndex;
  private Membership base;
  private final List<Change> changes = new ArrayList<>();

  MembershipLog(long baseIndex, Membership base) {
    reset(baseIndex, base);
  }

  /**
   * The configuration as of the latest snapshot (the bootstrap one if it records none), then every
   * configuration entry of the log after it.
   */
  static MembershipLog recover(Membership bootstrap, RaftLog log, SnapshotMeta snapshot) {
    MembershipLog recovered =
        snapshot == null
            ? new MembershipLog(0, bootstrap)
            : new MembershipLog(
                snapshot.index(),
                snapshot.membership() != null ? snapshot.membership() : bootstrap);
    for (RaftEntry entry : log.configEntries(snapshot == null ? 1 : snapshot.index() + 1)) {
      recovered.appended(entry.index(), entry.membership());
    }
    return recovered;
  }

  /** The configuration in force: the last one appended. */
  Membership current() {
    return changes.isEmpty() ? base : changes.get(changes.size() - 1).membership();
  }

  /** The index of the last configuration entry, or the base index if none follows it. */
  long lastChangeIndex() {
    return changes.isEmpty() ? baseIndex : changes.get(changes.size() - 1).index();
  }

  /** The configuration in force at {@code index}, which must not be below the base index. */
  Membership at(long index) {
    if (index < baseIndex) {
      throw new IllegalArgumentException(
          "raft: configuration at " + index + " is compacted (known from " + baseIndex + ")");
    }
    Membership found = base;
    for (Change change : changes) {
      if (change.index() > index) {
        break;
      }
      found = change.membership();
    }
    return found;
  }

  /** A configuration entry was appended at {@code index}. */
  void appended(long index, Membership membership) {
    if (index <= lastChangeIndex()) {
      throw new IllegalStateException(
          "raft: configuration entry " + index + " does not follow " + lastChangeIndex());
    }
    changes.add(new Change(index, membership));
  }

  /** The log lost every entry after {@code index}; returns true if the configuration changed. */
  boolean truncatedAfter(long index) {
    if (index < baseIndex) {
      throw new IllegalStateException(
          "raft: truncation to " + index + " below the configuration's base " + baseIndex);
    }
    return changes.removeIf(change -> change.index() > index);
  }

  /** A snapshot covers everything up to {@code index}: it becomes the base. */
  void compactedTo(long index) {
    if (index <= baseIndex) {
      return;
    }
    Membership atIndex = at(index);
    changes.removeIf(change -> change.index() <= index);
    baseIndex = index;
    base = atIndex;
  }

  /** The log was replaced by a snapshot at {@code index} of configuration {@code membership}. */
  void reset(long index, Membership membership) {
    baseIndex = index;
    base = membership;
    changes.clear();
  }
}
