package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.DeploymentDistributionValueDecoder;
import io.tern.engine.record.sbe.DeploymentDistributionValueEncoder;

/** A partition that took a deployment's copy (the record's key is the deployment's). */
public final class DeploymentDistributionValue extends MappedValue<DeploymentDistributionValue> {
  private static final ValueFields<DeploymentDistributionValue> FIELDS =
      ValueFields.of(
              DeploymentDistributionValue.class,
              DeploymentDistributionValueEncoder.class,
              DeploymentDistributionValueDecoder.class)
          .int32("partitionId", v -> v.partitionId, (v, x) -> v.partitionId = x)
          .build();

  public int partitionId;

  public DeploymentDistributionValue() {
    super(FIELDS);
  }
}
