package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.VariableDocumentValueDecoder;
import io.tern.engine.record.sbe.VariableDocumentValueEncoder;

/** Variables set on an element instance from outside (the gateway's SetVariables). */
public final class VariableDocumentValue extends MappedValue<VariableDocumentValue> {
  private static final ValueFields<VariableDocumentValue> FIELDS =
      ValueFields.of(
              VariableDocumentValue.class,
              VariableDocumentValueEncoder.class,
              VariableDocumentValueDecoder.class)
          .int64("scopeKey", v -> v.scopeKey, (v, x) -> v.scopeKey = x)
          .bool("local", v -> v.local, (v, x) -> v.local = x)
          .bytes("variables", v -> v.variables, (v, x) -> v.variables = x)
          .build();

  public long scopeKey = -1;

  /** True: set in the scope itself; false: each goes where a job completion's would. */
  public boolean local;

  public byte[] variables = new byte[0];

  public VariableDocumentValue() {
    super(FIELDS);
  }
}
