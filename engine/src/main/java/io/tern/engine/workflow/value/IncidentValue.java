package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.IncidentValueDecoder;
import io.tern.engine.record.sbe.IncidentValueEncoder;

/** An incident: what went wrong, where, and (for job incidents) which job. */
public final class IncidentValue extends MappedValue<IncidentValue> {
  private static final ValueFields<IncidentValue> FIELDS =
      ValueFields.of(IncidentValue.class, IncidentValueEncoder.class, IncidentValueDecoder.class)
          .uint8("errorType", v -> v.errorType.ordinal(), (v, x) -> v.errorType = ErrorType.of(x))
          .int64(
              "processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
          .int64(
              "elementInstanceKey", v -> v.elementInstanceKey, (v, x) -> v.elementInstanceKey = x)
          .int64(
              "processDefinitionKey",
              v -> v.processDefinitionKey,
              (v, x) -> v.processDefinitionKey = x)
          .int64("jobKey", v -> v.jobKey, (v, x) -> v.jobKey = x)
          .string("bpmnProcessId", v -> v.bpmnProcessId, (v, x) -> v.bpmnProcessId = x)
          .string("elementId", v -> v.elementId, (v, x) -> v.elementId = x)
          .string("errorMessage", v -> v.errorMessage, (v, x) -> v.errorMessage = x)
          .build();

  public ErrorType errorType = ErrorType.UNKNOWN;
  public long processInstanceKey = -1;
  public long elementInstanceKey = -1;
  public long processDefinitionKey = -1;
  public long jobKey = -1;
  public String bpmnProcessId = "";
  public String elementId = "";
  public String errorMessage = "";

  public IncidentValue() {
    super(FIELDS);
  }
}
