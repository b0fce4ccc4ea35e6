package io.tern.engine.workflow.processing.common;

import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.Intent;
import io.tern.engine.record.RecordValue;
import io.tern.engine.workflow.state.PendingCopies;
import io.tern.engine.workflow.value.WorkflowValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Copy to every partition, acknowledge, retry: how a record made on one partition reaches all the
 * others (a deployment, a signal broadcast, a resource deletion). Its processor sends the copies
 * once the record is committed; its applier remembers in {@link PendingCopies} the partitions that
 * have not acknowledged yet; each receiver takes a copy at most once and acknowledges every copy;
 * and every copy still pending is sent again ({@link #retryPending}, while leading) until it is
 * acknowledged. So a copy or an acknowledgement lost on the way, in a leader change, only costs a
 * resend. The features differ only in what taking a copy means, and in their records, given here.
 *
 * @param <V> the copied record's value
 */
public final class Distribution<V extends WorkflowValue> {
  private final PartitionSender sender;
  private final PendingCopies<V> copies;
  private final Intent copyIntent;
  private final Intent ackIntent;

  /**
   * @param copies the copies of this feature not acknowledged yet
   * @param copyIntent the command the copied record is sent as (of the copied record's value type)
   * @param ackIntent the acknowledgement's command
   */
  public Distribution(
      PartitionSender sender, PendingCopies<V> copies, Intent copyIntent, Intent ackIntent) {
    this.sender = sender;
    this.copies = copies;
    this.copyIntent = copyIntent;
    this.ackIntent = ackIntent;
  }

  /** Every partition of {@code partitionCount} but {@code origin}, in order. */
  public static List<Integer> others(int partitionCount, int origin) {
    List<Integer> others = new ArrayList<>();
    for (int partition = 1; partition <= partitionCount; partition++) {
      if (partition != origin) {
        others.add(partition);
      }
    }
    return others;
  }

  /**
   * Sends record {@code key}'s {@code copy} to {@code partitions} once {@code result} is committed;
   * the copy is not the caller's to change any more.
   */
  public void send(ProcessingResult result, long key, V copy, List<Integer> partitions) {
    for (int partition : partitions) {
      sender.sendAfterCommit(result, partition, copyIntent, key, copy);
    }
  }

  /**
   * On a receiver: acknowledges copy {@code key} to {@code origin} once {@code result} is
   * committed.
   */
  public void acknowledge(ProcessingResult result, int origin, long key, RecordValue ack) {
    sender.sendAfterCommit(result, origin, ackIntent, key, ack);
  }

  /** Whether partition {@code partitionId} still owes an acknowledgement of {@code key}. */
  public boolean isPending(long key, int partitionId) {
    return copies.isPending(key, partitionId);
  }

  /** Sends again every copy not acknowledged yet. */
  public void retryPending() {
    copies.forEachPending(
        (partitionId, key, copy) -> sender.send(partitionId, copyIntent, key, copy));
  }
}
