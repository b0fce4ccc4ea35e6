package io.tern.engine.protocol;

/** {@link ValueType#DEPLOYMENT_DISTRIBUTION}. */
public enum DeploymentDistributionIntent implements Intent {
  /** From a partition that took the deployment's copy. */
  COMPLETE(0),

  COMPLETED(1);

  private final int code;

  DeploymentDistributionIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.DEPLOYMENT_DISTRIBUTION;
  }

  @Override
  public int code() {
    return code;
  }
}
