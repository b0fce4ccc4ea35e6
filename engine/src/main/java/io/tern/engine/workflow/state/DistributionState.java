package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbNil;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.DeploymentValue;
import java.util.ArrayList;
import java.util.List;

/**
 * On the deployment partition: deployments not yet taken by every partition, and which partitions
 * still need them (asked again until they acknowledge).
 */
public final class DistributionState {
  /** A deployment still to be taken by a partition. */
  public record Pending(long deploymentKey, int partitionId) {}

  private final ColumnFamily<DbLong, DeploymentValue> deployments;
  private final ColumnFamily<DbCompositeKey<DbLong, DbLong>, DbNil> pending;
  private final DbLong key = new DbLong();
  private final DbLong partition = new DbLong();
  private final DbCompositeKey<DbLong, DbLong> keyAndPartition =
      new DbCompositeKey<>(key, partition);
  private final DbNil nil = new DbNil();

  public DistributionState(PartitionState state) {
    deployments =
        state.columnFamily(StateIds.DEPLOYMENTS_TO_DISTRIBUTE, new DbLong(), new DeploymentValue());
    pending =
        state.columnFamily(
            StateIds.PENDING_DISTRIBUTIONS, new DbCompositeKey<>(new DbLong(), new DbLong()), nil);
  }

  /** Applier: {@code deployment} is to be taken by {@code partitionIds}. */
  public void distribute(
      long deploymentKey, DeploymentValue deployment, List<Integer> partitionIds) {
    deployments.put(key.set(deploymentKey), deployment);
    for (int partitionId : partitionIds) {
      key.set(deploymentKey);
      partition.set(partitionId);
      pending.put(keyAndPartition, nil);
    }
  }

  public boolean isPending(long deploymentKey, int partitionId) {
    key.set(deploymentKey);
    partition.set(partitionId);
    return pending.exists(keyAndPartition);
  }

  /** Applier: a partition took the deployment; once all have, it is forgotten here. */
  public void completed(long deploymentKey, int partitionId) {
    key.set(deploymentKey);
    partition.set(partitionId);
    pending.delete(keyAndPartition);
    if (partitionsLeft(deploymentKey) == 0) {
      deployments.delete(key.set(deploymentKey));
    }
  }

  public int partitionsLeft(long deploymentKey) {
    int[] left = {0};
    pending.forEachWithPrefix(
        new DbLong(deploymentKey),
        (k, v) -> {
          left[0]++;
          return true;
        });
    return left[0];
  }

  public boolean deployment(long deploymentKey, DeploymentValue into) {
    return deployments.get(key.set(deploymentKey), into);
  }

  public List<Pending> pending() {
    List<Pending> all = new ArrayList<>();
    pending.forEach(
        (k, v) -> {
          all.add(new Pending(k.first().get(), (int) k.second().get()));
          return true;
        });
    return all;
  }
}
