package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.ProcessInstanceCreationValueDecoder;
import io.tern.engine.record.sbe.ProcessInstanceCreationValueEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** A request to start a process instance, and the instance it started. */
public final class ProcessInstanceCreationValue extends WorkflowValue {
  public static final int LATEST_VERSION = -1;

  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final ProcessInstanceCreationValueEncoder encoder =
      new ProcessInstanceCreationValueEncoder();
  private final ProcessInstanceCreationValueDecoder decoder =
      new ProcessInstanceCreationValueDecoder();

  public long processDefinitionKey = -1;
  public int version = LATEST_VERSION;
  public long processInstanceKey = -1;
  public String bpmnProcessId = "";
  public byte[] variables = new byte[0];

  @Override
  protected int templateId() {
    return ProcessInstanceCreationValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .processDefinitionKey(processDefinitionKey)
        .version(version)
        .processInstanceKey(processInstanceKey)
        .bpmnProcessId(bpmnProcessId)
        .putVariables(variables, 0, variables.length);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    processDefinitionKey = decoder.processDefinitionKey();
    this.version = decoder.version();
    processInstanceKey = decoder.processInstanceKey();
    bpmnProcessId = decoder.bpmnProcessId();
    variables = new byte[decoder.variablesLength()];
    decoder.getVariables(variables, 0, variables.length);
  }
}
