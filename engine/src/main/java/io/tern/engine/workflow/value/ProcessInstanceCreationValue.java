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

  /** With a result awaited: the variables to answer with; none: all. */
  public final java.util.List<String> fetchVariables = new java.util.ArrayList<>();

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
    byte[] fetch =
        fetchVariables.isEmpty()
            ? new byte[0]
            : io.tern.engine.workflow.variables.JsonValues.fromJava(fetchVariables);
    encoder.putFetchVariables(fetch, 0, fetch.length);
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
    fetchVariables.clear();
    byte[] fetch = new byte[decoder.fetchVariablesLength()];
    decoder.getFetchVariables(fetch, 0, fetch.length);
    if (fetch.length > 0
        && io.tern.engine.workflow.variables.JsonDocuments.toJava(fetch)
            instanceof java.util.List<?> names) {
      names.forEach(name -> fetchVariables.add(String.valueOf(name)));
    }
  }
}
