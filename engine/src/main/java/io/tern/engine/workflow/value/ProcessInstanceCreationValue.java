package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.ProcessInstanceCreationValueDecoder;
import io.tern.engine.record.sbe.ProcessInstanceCreationValueEncoder;
import io.tern.engine.workflow.variables.JsonDocuments;
import io.tern.engine.workflow.variables.JsonValues;
import java.util.ArrayList;
import java.util.List;

/** A request to start a process instance, and the instance it started. */
public final class ProcessInstanceCreationValue extends MappedValue<ProcessInstanceCreationValue> {
  private static final byte[] NONE = new byte[0];

  private static final ValueFields<ProcessInstanceCreationValue> FIELDS =
      ValueFields.of(
              ProcessInstanceCreationValue.class,
              ProcessInstanceCreationValueEncoder.class,
              ProcessInstanceCreationValueDecoder.class)
          .int64(
              "processDefinitionKey",
              v -> v.processDefinitionKey,
              (v, x) -> v.processDefinitionKey = x)
          .int32("version", v -> v.version, (v, x) -> v.version = x)
          .int64(
              "processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
          .string("bpmnProcessId", v -> v.bpmnProcessId, (v, x) -> v.bpmnProcessId = x)
          .bytes("variables", v -> v.variables, (v, x) -> v.variables = x)
          .bytes(
              "fetchVariables",
              v -> v.fetchVariables.isEmpty() ? NONE : JsonValues.fromJava(v.fetchVariables),
              ProcessInstanceCreationValue::readFetchVariables,
              (from, to) -> {
                to.fetchVariables.clear();
                to.fetchVariables.addAll(from.fetchVariables);
              })
          .build();

  public static final int LATEST_VERSION = -1;

  public long processDefinitionKey = -1;
  public int version = LATEST_VERSION;
  public long processInstanceKey = -1;
  public String bpmnProcessId = "";
  public byte[] variables = new byte[0];

  /** With a result awaited: the variables to answer with; none: all. */
  public final List<String> fetchVariables = new ArrayList<>();

  public ProcessInstanceCreationValue() {
    super(FIELDS);
  }

  /** The names of a JSON array (written only if there are any). */
  private void readFetchVariables(byte[] json) {
    fetchVariables.clear();
    if (json.length > 0 && JsonDocuments.toJava(json) instanceof List<?> names) {
      names.forEach(name -> fetchVariables.add(String.valueOf(name)));
    }
  }
}
