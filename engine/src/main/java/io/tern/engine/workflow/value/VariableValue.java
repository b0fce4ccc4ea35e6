package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.VariableValueDecoder;
import io.tern.engine.record.sbe.VariableValueEncoder;

/** One variable: its scope (an element instance), name and JSON value. */
public final class VariableValue extends MappedValue<VariableValue> {
  private static final ValueFields<VariableValue> FIELDS =
      ValueFields.of(VariableValue.class, VariableValueEncoder.class, VariableValueDecoder.class)
          .int64("scopeKey", v -> v.scopeKey, (v, x) -> v.scopeKey = x)
          .int64(
              "processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
          .int64(
              "processDefinitionKey",
              v -> v.processDefinitionKey,
              (v, x) -> v.processDefinitionKey = x)
          .string("name", v -> v.name, (v, x) -> v.name = x)
          .bytes("value", v -> v.value, (v, x) -> v.value = x)
          .build();

  public long scopeKey = -1;
  public long processInstanceKey = -1;
  public long processDefinitionKey = -1;
  public String name = "";
  public byte[] value = new byte[0];

  public VariableValue() {
    super(FIELDS);
  }
}
