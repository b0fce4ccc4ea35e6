package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.ProcessEventValueDecoder;
import io.tern.engine.record.sbe.ProcessEventValueEncoder;

/**
 * A boundary event triggered on an activity instance (by a timer, an error, ...), with the
 * variables the trigger brings.
 */
public final class ProcessEventValue extends MappedValue<ProcessEventValue> {
  private static final ValueFields<ProcessEventValue> FIELDS =
      ValueFields.of(
              ProcessEventValue.class,
              ProcessEventValueEncoder.class,
              ProcessEventValueDecoder.class)
          .int64("scopeKey", v -> v.scopeKey, (v, x) -> v.scopeKey = x)
          .int64(
              "processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
          .int64(
              "processDefinitionKey",
              v -> v.processDefinitionKey,
              (v, x) -> v.processDefinitionKey = x)
          .bool("interrupting", v -> v.interrupting, (v, x) -> v.interrupting = x)
          .string("targetElementId", v -> v.targetElementId, (v, x) -> v.targetElementId = x)
          .string("bpmnProcessId", v -> v.bpmnProcessId, (v, x) -> v.bpmnProcessId = x)
          .bytes("variables", v -> v.variables, (v, x) -> v.variables = x)
          .build();

  /** The activity instance the boundary event is attached to. */
  public long scopeKey = -1;

  public long processInstanceKey = -1;
  public long processDefinitionKey = -1;
  public boolean interrupting;
  public String targetElementId = "";
  public String bpmnProcessId = "";
  public byte[] variables = new byte[0];

  public ProcessEventValue() {
    super(FIELDS);
  }
}
