package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.DecisionEvaluationValueDecoder;
import io.tern.engine.record.sbe.DecisionEvaluationValueEncoder;

/**
 * An EvaluateDecision request (a decision by key, or the latest version by id, with variables),
 * and, in its EVALUATED or FAILED event, the evaluation as one JSON document (see {@link
 * io.tern.engine.workflow.processing.decisions.DecisionEvaluationProcessor}).
 */
public final class DecisionEvaluationValue extends MappedValue<DecisionEvaluationValue> {
  private static final ValueFields<DecisionEvaluationValue> FIELDS =
      ValueFields.of(
              DecisionEvaluationValue.class,
              DecisionEvaluationValueEncoder.class,
              DecisionEvaluationValueDecoder.class)
          .int64("decisionKey", v -> v.decisionKey, (v, x) -> v.decisionKey = x)
          .string("decisionId", v -> v.decisionId, (v, x) -> v.decisionId = x)
          .bytes("variables", v -> v.variables, (v, x) -> v.variables = x)
          .bytes("evaluation", v -> v.evaluation, (v, x) -> v.evaluation = x)
          .build();

  public long decisionKey = -1;
  public String decisionId = "";
  public byte[] variables = new byte[0];
  public byte[] evaluation = new byte[0];

  public DecisionEvaluationValue() {
    super(FIELDS);
  }
}
