package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.ProcessInstanceModificationValueDecoder;
import io.tern.engine.record.sbe.ProcessInstanceModificationValueEncoder;
import java.util.ArrayList;
import java.util.List;

/**
 * ModifyProcessInstance: elements of a process instance to activate (with variables for them or
 * their scopes) and element instances to terminate. The MODIFIED event adds, for each activation,
 * the flow scope instance it activates the element in, and the flow scope instances it created.
 */
public final class ProcessInstanceModificationValue
    extends MappedValue<ProcessInstanceModificationValue> {
  /**
   * Activate {@code elementId}; within ancestor instance {@code ancestorScopeKey} (-1: wherever its
   * scopes have one active instance each). MODIFIED's {@code flowScopeKey} and {@code
   * elementInstanceKey}: where and as what it is activated; else -1.
   */
  public record Activation(
      String elementId, long ancestorScopeKey, long flowScopeKey, long elementInstanceKey) {
    public Activation(String elementId, long ancestorScopeKey) {
      this(elementId, ancestorScopeKey, -1, -1);
    }
  }

  /**
   * Variables for activation {@code activation} (an index): the process instance's ({@code scopeId}
   * empty), the activated element's own, or those of one of its scopes.
   */
  public record Variables(int activation, String scopeId, byte[] document) {}

  /** A flow scope instance MODIFIED created, in scope {@code flowScopeKey}. */
  public record CreatedScope(long elementInstanceKey, long flowScopeKey) {}

  private static final ValueFields<ProcessInstanceModificationValue> FIELDS =
      ValueFields.of(
              ProcessInstanceModificationValue.class,
              ProcessInstanceModificationValueEncoder.class,
              ProcessInstanceModificationValueDecoder.class)
          .int64(
              "processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
          .group(
              "terminations",
              termination -> termination.int64("elementInstanceKey", v -> v.terminations))
          .group(
              "activations",
              v -> v.activations,
              Activation.class,
              activation ->
                  activation
                      .int64("ancestorScopeKey")
                      .int64("flowScopeKey")
                      .int64("elementInstanceKey")
                      .string("elementId"))
          .group(
              "variables",
              v -> v.variables,
              Variables.class,
              variables -> variables.int32("activation").string("scopeId").bytes("document"))
          .group(
              "createdScopes",
              v -> v.createdScopes,
              CreatedScope.class,
              created -> created.int64("elementInstanceKey").int64("flowScopeKey"))
          .build();

  public long processInstanceKey = -1;
  public final List<Long> terminations = new ArrayList<>();
  public final List<Activation> activations = new ArrayList<>();
  public final List<Variables> variables = new ArrayList<>();
  public final List<CreatedScope> createdScopes = new ArrayList<>();

  public ProcessInstanceModificationValue() {
    super(FIELDS);
  }
}
