package io.tern.engine.workflow.model;

/** A resource that cannot be deployed, with every problem found, each naming its element. */
public final class DeploymentRejection extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public DeploymentRejection(String message) {
    super(message);
  }
}
