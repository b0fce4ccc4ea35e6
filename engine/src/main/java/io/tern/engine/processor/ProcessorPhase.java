package io.tern.engine.processor;

/** What a partition's stream processor is doing; its health for the management API. */
public enum ProcessorPhase {
  /** Restoring state and applying the log's events (a follower stays here). */
  REPLAYING,
  /** The leader processes commands. */
  PROCESSING,
  /** The leader holds commands back on request (admin API); followers keep replaying. */
  PAUSED,
  /** An event could not be applied or the state failed: the partition stopped, see the cause. */
  FAILED,
  CLOSED
}
