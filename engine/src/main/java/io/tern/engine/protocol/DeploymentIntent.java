package io.tern.engine.protocol;

/** {@link ValueType#DEPLOYMENT}. */
public enum DeploymentIntent implements Intent {
  CREATE(0),
  CREATED(1),

  /** From the deployment partition: take this deployment as it is (same keys, versions). */
  DISTRIBUTE(2),

  DISTRIBUTED(3),

  /** On the deployment partition: every partition has the deployment. */
  FULLY_DISTRIBUTED(4);

  private final int code;

  DeploymentIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.DEPLOYMENT;
  }

  @Override
  public int code() {
    return code;
  }
}
