package io.tern.engine.workflow.variables;

/** A variables document that is not a JSON object, with what is wrong and where. */
public final class InvalidVariablesException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public InvalidVariablesException(String message) {
    super(message);
  }
}
