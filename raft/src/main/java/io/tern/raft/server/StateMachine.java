package io.tern.raft.server;

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
   * The leader sent a snapshot and it replaced this member's log: load the state from {@code
   * directory}; entries after {@code meta.index()} follow in the log.
   */
  void onSnapshotInstalled(SnapshotMeta meta, Path directory);

  StateMachine NONE =
      new StateMachine() {
        @Override
        public void onCommit(long commitIndex) {}

        @Override
        public void onSnapshotInstalled(SnapshotMeta meta, Path directory) {}
      };
}
