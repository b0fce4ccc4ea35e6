package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.ResourceDeletionValueDecoder;
import io.tern.engine.record.sbe.ResourceDeletionValueEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A deployed process deleted: made on partition 1, which sends a copy with the same key to every
 * other partition until each acknowledges it.
 */
public final class ResourceDeletionValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final ResourceDeletionValueEncoder encoder = new ResourceDeletionValueEncoder();
  private final ResourceDeletionValueDecoder decoder = new ResourceDeletionValueDecoder();

  /** The process definition's key. */
  public long resourceKey = -1;

  /** The partition the deletion was made on; -1 until it is. */
  public int originPartitionId = -1;

  /** ACKNOWLEDGE: the partition that took the copy; else -1. */
  public int partitionId = -1;

  public int version = -1;
  public String bpmnProcessId = "";

  public ResourceDeletionValue copyFrom(ResourceDeletionValue other) {
    resourceKey = other.resourceKey;
    originPartitionId = other.originPartitionId;
    partitionId = other.partitionId;
    version = other.version;
    bpmnProcessId = other.bpmnProcessId;
    return this;
  }

  @Override
  protected int templateId() {
    return ResourceDeletionValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .resourceKey(resourceKey)
        .originPartitionId(originPartitionId)
        .partitionId(partitionId)
        .version(version)
        .bpmnProcessId(bpmnProcessId);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    resourceKey = decoder.resourceKey();
    originPartitionId = decoder.originPartitionId();
    partitionId = decoder.partitionId();
    this.version = decoder.version();
    bpmnProcessId = decoder.bpmnProcessId();
  }
}
