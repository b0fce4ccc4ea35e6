package io.tern.engine.protocol;

/** {@link ValueType#DECISION_EVALUATION}. */
public enum DecisionEvaluationIntent implements Intent {
  EVALUATE(0),
  EVALUATED(1),

  /** The decision failed to evaluate: the answer says which and why. */
  FAILED(2);

  private final int code;

  DecisionEvaluationIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.DECISION_EVALUATION;
  }

  @Override
  public int code() {
    return code;
  }
}
