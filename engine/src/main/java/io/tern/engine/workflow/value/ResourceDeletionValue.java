package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.ResourceDeletionValueDecoder;
import io.tern.engine.record.sbe.ResourceDeletionValueEncoder;

/**
 * A deployed process deleted: made on partition 1, which sends a copy with the same key to every
 * other partition until each acknowledges it.
 */
public final class ResourceDeletionValue extends MappedValue<ResourceDeletionValue> {
  private static final ValueFields<ResourceDeletionValue> FIELDS =
      ValueFields.of(
              ResourceDeletionValue.class,
              ResourceDeletionValueEncoder.class,
              ResourceDeletionValueDecoder.class)
          .int64("resourceKey", v -> v.resourceKey, (v, x) -> v.resourceKey = x)
          .int32("originPartitionId", v -> v.originPartitionId, (v, x) -> v.originPartitionId = x)
          .int32("partitionId", v -> v.partitionId, (v, x) -> v.partitionId = x)
          .int32("version", v -> v.version, (v, x) -> v.version = x)
          .string("bpmnProcessId", v -> v.bpmnProcessId, (v, x) -> v.bpmnProcessId = x)
          .build();

  /** The process definition's key. */
  public long resourceKey = -1;

  /** The partition the deletion was made on; -1 until it is. */
  public int originPartitionId = -1;

  /** ACKNOWLEDGE: the partition that took the copy; else -1. */
  public int partitionId = -1;

  public int version = -1;
  public String bpmnProcessId = "";

  public ResourceDeletionValue() {
    super(FIELDS);
  }
}
