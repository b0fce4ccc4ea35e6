package io.tern.raft.server;

import io.tern.raft.RaftRole;
import io.tern.raft.SnapshotMeta;
import java.nio.file.Path;

/**
 * What a partition's application hears from Raft, on the partition's Raft thread (so it must not
 * block for long): commits, and snapshots installed from the leader.
 */
public interface StateMachine {
  /** Entries up to {@code commitIndex} are committed; read them from the journal. */
  void onCommit(long commitIndex);

  /**
   * As leader, this member's journal now holds entries up to {@code lastIndex}, readable but not
   * committed yet (for an application that processes entries before they commit).
   */
  default void onAppended(long lastIndex) {}

  /**
   * The leader sent a snapshot and it replaced this member's log: load the state from {@code
   * directory}; entries after {@code meta.index()} follow in the log.
   */
  void onSnapshotInstalled(SnapshotMeta meta, Path directory);

  /**
   * This member's role or term changed. {@code lastIndex} is the last entry of its log at that
   * moment: for a new leader, its no-op entry, whose commit means every earlier entry committed.
   */
  default void onRoleChange(RaftRole role, long term, long lastIndex) {}

  StateMachine NONE =
      new StateMachine() {
        @Override
        public void onCommit(long commitIndex) {}

        @Override
        public void onSnapshotInstalled(SnapshotMeta meta, Path directory) {}
      };
}
