package io.tern.engine.gateway;

import io.tern.engine.record.RecordValue;
import io.tern.engine.record.sbe.RejectionType;
import java.util.concurrent.CompletableFuture;

/** How the gateway reaches the partitions: it writes commands and gets their committed answers. */
public interface PartitionCommands {
  /** Partition ids are 1 to this. */
  int partitionsCount();

  /**
   * Writes a command to the leader of {@code partitionId}. The future completes with the answer
   * once the record that answers is committed, or exceptionally with {@link
   * PartitionUnavailableException} if the command could not be written there.
   */
  CompletableFuture<Answer> request(
      int partitionId, int valueType, int intent, long key, RecordValue value);

  /** A committed answer: an event (accepted) or a rejection with its reason. */
  record Answer(int intent, RejectionType rejection, String reason, long key, byte[] value) {
    public boolean accepted() {
      return rejection == RejectionType.NONE;
    }
  }

  /** The partition has no leader here, is not processing yet, or refuses commands for now. */
  final class PartitionUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Whether the partition refuses because it is short of a resource (disk), not of a leader. */
    private final boolean exhausted;

    public PartitionUnavailableException(String message, boolean exhausted) {
      super(message);
      this.exhausted = exhausted;
    }

    public boolean exhausted() {
      return exhausted;
    }
  }
}
