package io.tern.engine.command;

import io.tern.engine.protocol.Intent;
import io.tern.engine.record.RecordValue;
import io.tern.engine.record.sbe.RejectionType;
import java.util.concurrent.CompletableFuture;

/**
 * How a gateway, or a broker forwarding for one, reaches the partitions: it writes a command to the
 * leader of its partition and gets the committed answer. A command ends in one of three outcomes,
 * and callers must keep them apart, because only the first may be tried again:
 *
 * <ul>
 *   <li><b>not written</b> ({@link NotWrittenException}): no leader known, the connection refused
 *       before the command left, or the leader refused it (backpressure, disk, not leading);
 *   <li><b>written or not, unknown</b> ({@link OutcomeUnknownException}, or a {@link
 *       java.util.concurrent.TimeoutException} when no answer came in time): the connection broke
 *       after the command left; it may have been written and may take effect;
 *   <li><b>written</b>: an {@link Answer}, an event or a rejection.
 * </ul>
 */
public interface PartitionCommands {
  /** Partition ids are 1 to this. */
  int partitionsCount();

  /**
   * Writes a command to the leader of {@code partitionId}. The future completes with the answer
   * once the record that answers is committed, or exceptionally with one of the failures above;
   * without an answer within {@code timeoutMs}, with a {@link
   * java.util.concurrent.TimeoutException} saying what is known (processing paused, the leader
   * changed, where an awaited instance waits). Callers that bound the wait themselves leave the
   * partition {@link #TIMEOUT_GRACE_MS} more, so that its explanation arrives first.
   */
  CompletableFuture<Answer> request(
      int partitionId, Intent intent, long key, RecordValue value, long timeoutMs);

  /** How much later than the partition's own timeout a caller's bound on the wait falls. */
  long TIMEOUT_GRACE_MS = 1_000;

  /**
   * A committed answer: an event (accepted) or a rejection with its reason. {@code intent} is the
   * answering record's intent code: the command API's answer carries no value type (an answer may
   * be of another value type than its command, e.g. a PROCESS_INSTANCE_RESULT), so compare it with
   * an intent's {@code code()}.
   */
  record Answer(int intent, RejectionType rejection, String reason, long key, byte[] value) {
    public boolean accepted() {
      return rejection == RejectionType.NONE;
    }
  }

  /** The command was certainly not written: it may be sent again. */
  final class NotWrittenException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Whether the partition refused for want of a resource (its limit, disk), not of a leader. */
    private final boolean exhausted;

    public NotWrittenException(String message, boolean exhausted) {
      super(message);
      this.exhausted = exhausted;
    }

    public boolean exhausted() {
      return exhausted;
    }
  }

  /**
   * The command left for its partition's leader and the connection broke before an answer came: it
   * may or may not have been written. Sending it again may run it twice.
   */
  final class OutcomeUnknownException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OutcomeUnknownException(String message) {
      super(message);
    }
  }
}
