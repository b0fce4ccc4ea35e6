package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.ProcessInstanceValueDecoder;
import io.tern.engine.record.sbe.ProcessInstanceValueEncoder;

/** One element instance of a process instance (the process itself included). */
public final class ProcessInstanceValue extends MappedValue<ProcessInstanceValue> {
  private static final ValueFields<ProcessInstanceValue> FIELDS =
      ValueFields.of(
              ProcessInstanceValue.class,
              ProcessInstanceValueEncoder.class,
              ProcessInstanceValueDecoder.class)
          .int64(
              "processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
          .int64(
              "processDefinitionKey",
              v -> v.processDefinitionKey,
              (v, x) -> v.processDefinitionKey = x)
          .int64("flowScopeKey", v -> v.flowScopeKey, (v, x) -> v.flowScopeKey = x)
          .int32("version", v -> v.version, (v, x) -> v.version = x)
          .uint8(
              "bpmnElementType",
              v -> v.elementType.ordinal(),
              (v, x) -> v.elementType = BpmnElementType.of(x))
          .int64(
              "parentElementInstanceKey",
              -1,
              v -> v.parentElementInstanceKey,
              (v, x) -> v.parentElementInstanceKey = x)
          .string("bpmnProcessId", v -> v.bpmnProcessId, (v, x) -> v.bpmnProcessId = x)
          .string("elementId", v -> v.elementId, (v, x) -> v.elementId = x)
          .build();

  public long processInstanceKey = -1;
  public long processDefinitionKey = -1;
  public long flowScopeKey = -1;

  /** For a process called by a call activity: that call activity's instance; else -1. */
  public long parentElementInstanceKey = -1;

  public int version;
  public BpmnElementType elementType = BpmnElementType.PROCESS;
  public String bpmnProcessId = "";
  public String elementId = "";

  public ProcessInstanceValue() {
    super(FIELDS);
  }

  @Override
  public String toString() {
    return elementType + " " + elementId + " of " + bpmnProcessId + " #" + processInstanceKey;
  }
}
