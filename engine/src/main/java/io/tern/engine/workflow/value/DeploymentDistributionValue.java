package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.DeploymentDistributionValueDecoder;
import io.tern.engine.record.sbe.DeploymentDistributionValueEncoder;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** A partition that took a deployment's copy (the record's key is the deployment's). */
public final class DeploymentDistributionValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final DeploymentDistributionValueEncoder encoder =
      new DeploymentDistributionValueEncoder();
  private final DeploymentDistributionValueDecoder decoder =
      new DeploymentDistributionValueDecoder();

  public int partitionId;

  @Override
  protected int templateId() {
    return DeploymentDistributionValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder.wrapAndApplyHeader(buffer, offset, header).partitionId(partitionId);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    partitionId = decoder.partitionId();
  }
}
