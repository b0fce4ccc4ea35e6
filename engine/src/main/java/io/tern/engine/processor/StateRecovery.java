package io.tern.engine.processor;

import io.tern.engine.state.PartitionState;

/**
 * Opens the partition state the processor starts from: a copy of the latest snapshot in the runtime
 * directory (or an empty state), with the log index to continue reading at. Called at start, after
 * a snapshot install and when this member stops leading (its state may hold effects of batches that
 * were never committed, so it starts over from committed ground).
 */
@FunctionalInterface
public interface StateRecovery {
  Recovered recover();

  /**
   * @param state the opened state (the processor closes it)
   * @param nextLogIndex the first log entry not reflected in it
   * @param lastLogPosition the last record position at or before {@code nextLogIndex - 1}, 0 if
   *     none
   */
  record Recovered(PartitionState state, long nextLogIndex, long lastLogPosition) {}
}
