package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.DecisionEvaluationValueDecoder;
import io.tern.engine.record.sbe.DecisionEvaluationValueEncoder;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * An EvaluateDecision request (a decision by key, or the latest version by id, with variables),
 * and, in its EVALUATED or FAILED event, the evaluation as one JSON document (see {@link
 * io.tern.engine.workflow.processing.decisions.DecisionEvaluationProcessor}).
 */
public final class DecisionEvaluationValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final DecisionEvaluationValueEncoder encoder = new DecisionEvaluationValueEncoder();
  private final DecisionEvaluationValueDecoder decoder = new DecisionEvaluationValueDecoder();

  public long decisionKey = -1;
  public String decisionId = "";
  public byte[] variables = new byte[0];
  public byte[] evaluation = new byte[0];

  @Override
  protected int templateId() {
    return DecisionEvaluationValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .decisionKey(decisionKey)
        .decisionId(decisionId)
        .putVariables(variables, 0, variables.length)
        .putEvaluation(evaluation, 0, evaluation.length);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    decisionKey = decoder.decisionKey();
    decisionId = decoder.decisionId();
    variables = new byte[decoder.variablesLength()];
    decoder.getVariables(variables, 0, variables.length);
    evaluation = new byte[decoder.evaluationLength()];
    decoder.getEvaluation(evaluation, 0, evaluation.length);
  }
}
