package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbNil;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.ResourceDeletionValue;
import java.util.ArrayList;
import java.util.List;

/**
 * On partition 1: deletions whose copies other partitions have not acknowledged yet (sent again
 * until they do). Taking a copy twice changes nothing, so the other partitions keep no record.
 */
public final class DeletionDistributionState {
  /** A deletion a partition has not acknowledged yet. */
  public record Pending(long deletionKey, int partitionId) {}

  private final ColumnFamily<DbLong, ResourceDeletionValue> deletions;
  private final ColumnFamily<DbCompositeKey<DbLong, DbLong>, DbNil> pending;
  private final DbLong key = new DbLong();
  private final DbLong partition = new DbLong();
  private final DbCompositeKey<DbLong, DbLong> keyAndPartition =
      new DbCompositeKey<>(key, partition);
  private final DbNil nil = new DbNil();

  public DeletionDistributionState(PartitionState state) {
    deletions =
        state.columnFamily(
            StateIds.DELETIONS_TO_DISTRIBUTE, new DbLong(), new ResourceDeletionValue());
    pending =
        state.columnFamily(
            StateIds.PENDING_DELETION_DISTRIBUTIONS,
            new DbCompositeKey<>(new DbLong(), new DbLong()),
            nil);
  }

  /** Applier: the deletion is to be taken by {@code partitionIds}. */
  public void distribute(
      long deletionKey, ResourceDeletionValue value, List<Integer> partitionIds) {
    if (partitionIds.isEmpty()) {
      return;
    }
    deletions.put(key.set(deletionKey), value);
    for (int partitionId : partitionIds) {
      key.set(deletionKey);
      partition.set(partitionId);
      pending.put(keyAndPartition, nil);
    }
  }

  public boolean isPending(long deletionKey, int partitionId) {
    key.set(deletionKey);
    partition.set(partitionId);
    return pending.exists(keyAndPartition);
  }

  /** Applier: a partition took the copy; the last one lets the deletion go. */
  public void acknowledged(long deletionKey, int partitionId) {
    key.set(deletionKey);
    partition.set(partitionId);
    pending.delete(keyAndPartition);
    boolean[] left = {false};
    pending.forEachWithPrefix(
        new DbLong(deletionKey),
        (k, v) -> {
          left[0] = true;
          return false;
        });
    if (!left[0]) {
      deletions.delete(key.set(deletionKey));
    }
  }

  /** The copies still to be acknowledged, oldest first. */
  public List<Pending> pending() {
    List<Pending> found = new ArrayList<>();
    pending.forEach(
        (k, v) -> {
          found.add(new Pending(k.first().get(), (int) k.second().get()));
          return true;
        });
    return found;
  }

  /** The deletion {@code deletionKey}, for its copies; false once all were taken. */
  public boolean deletion(long deletionKey, ResourceDeletionValue into) {
    return deletions.get(key.set(deletionKey), into);
  }
}
