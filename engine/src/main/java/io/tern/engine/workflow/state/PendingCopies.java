package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbNil;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.ResourceDeletionValue;
import io.tern.engine.workflow.value.SignalValue;
import io.tern.engine.workflow.value.WorkflowValue;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Records this partition copies to the other partitions (a deployment, a signal broadcast, a
 * resource deletion) and the partitions that have not acknowledged their copy yet. The sender sends
 * every pending copy again until it is acknowledged, and a receiver takes a copy twice without
 * effect, so a copy or an acknowledgement lost on the way only costs a resend. The record is
 * forgotten with its last acknowledgement.
 *
 * @param <V> the copied record's value
 */
public final class PendingCopies<V extends WorkflowValue> {
  /** Sends one copy again. */
  @FunctionalInterface
  public interface Resend<V> {
    /**
     * @param value a fresh instance, the caller's to keep
     */
    void send(int partitionId, long key, V value);
  }

  private record Pending(long key, int partitionId) {}

  private final ColumnFamily<DbLong, V> values;
  private final ColumnFamily<DbCompositeKey<DbLong, DbLong>, DbNil> pending;
  private final Supplier<V> newValue;
  private final DbLong key = new DbLong();
  private final DbLong partition = new DbLong();
  private final DbCompositeKey<DbLong, DbLong> keyAndPartition =
      new DbCompositeKey<>(key, partition);
  private final DbNil nil = new DbNil();

  private PendingCopies(
      PartitionState state, short valuesId, short pendingId, Supplier<V> newValue) {
    this.newValue = newValue;
    values = state.columnFamily(valuesId, new DbLong(), newValue.get());
    pending = state.columnFamily(pendingId, new DbCompositeKey<>(new DbLong(), new DbLong()), nil);
  }

  /** Deployments made here, copied to every other partition. */
  public static PendingCopies<DeploymentValue> deployments(PartitionState state) {
    return new PendingCopies<>(
        state,
        StateIds.DEPLOYMENTS_TO_DISTRIBUTE,
        StateIds.PENDING_DISTRIBUTIONS,
        DeploymentValue::new);
  }

  /** Signals broadcast here, copied to every other partition. */
  public static PendingCopies<SignalValue> signals(PartitionState state) {
    return new PendingCopies<>(
        state,
        StateIds.SIGNALS_TO_DISTRIBUTE,
        StateIds.PENDING_SIGNAL_DISTRIBUTIONS,
        SignalValue::new);
  }

  /** Resource deletions made here, copied to every other partition. */
  public static PendingCopies<ResourceDeletionValue> deletions(PartitionState state) {
    return new PendingCopies<>(
        state,
        StateIds.DELETIONS_TO_DISTRIBUTE,
        StateIds.PENDING_DELETION_DISTRIBUTIONS,
        ResourceDeletionValue::new);
  }

  /** Applier: record {@code recordKey} is to be taken by {@code partitionIds} (none: not kept). */
  public void distribute(long recordKey, V value, List<Integer> partitionIds) {
    if (partitionIds.isEmpty()) {
      return;
    }
    values.put(key.set(recordKey), value);
    for (int partitionId : partitionIds) {
      key.set(recordKey);
      partition.set(partitionId);
      pending.put(keyAndPartition, nil);
    }
  }

  public boolean isPending(long recordKey, int partitionId) {
    key.set(recordKey);
    partition.set(partitionId);
    return pending.exists(keyAndPartition);
  }

  /** Applier: partition {@code partitionId} took its copy; the last one forgets the record. */
  public void acknowledged(long recordKey, int partitionId) {
    key.set(recordKey);
    partition.set(partitionId);
    pending.delete(keyAndPartition);
    if (partitionsLeft(recordKey) == 0) {
      values.delete(key.set(recordKey));
    }
  }

  /** The partitions that have not acknowledged record {@code recordKey} yet. */
  public int partitionsLeft(long recordKey) {
    int[] left = {0};
    pending.forEachWithPrefix(
        new DbLong(recordKey),
        (k, v) -> {
          left[0]++;
          return true;
        });
    return left[0];
  }

  /** Record {@code recordKey}, read into {@code into}; false once every partition took it. */
  public boolean value(long recordKey, V into) {
    return values.get(key.set(recordKey), into);
  }

  /** Calls {@code resend} for every copy not acknowledged yet, oldest record first. */
  public void forEachPending(Resend<V> resend) {
    // Collected first: reading a value while iterating would move the shared key buffers.
    List<Pending> all = new ArrayList<>();
    pending.forEach(
        (k, v) -> {
          all.add(new Pending(k.first().get(), (int) k.second().get()));
          return true;
        });
    for (Pending copy : all) {
      V value = newValue.get();
      if (value(copy.key(), value)) {
        resend.send(copy.partitionId(), copy.key(), value);
      }
    }
  }
}
