package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.ProcessInstanceModificationValueDecoder;
import io.tern.engine.record.sbe.ProcessInstanceModificationValueEncoder;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * ModifyProcessInstance: elements of a process instance to activate (with variables for them or
 * their scopes) and element instances to terminate. The MODIFIED event adds, for each activation,
 * the flow scope instance it activates the element in, and the flow scope instances it created.
 */
public final class ProcessInstanceModificationValue extends WorkflowValue {
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

  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final ProcessInstanceModificationValueEncoder encoder =
      new ProcessInstanceModificationValueEncoder();
  private final ProcessInstanceModificationValueDecoder decoder =
      new ProcessInstanceModificationValueDecoder();

  public long processInstanceKey = -1;
  public final List<Long> terminations = new ArrayList<>();
  public final List<Activation> activations = new ArrayList<>();
  public final List<Variables> variables = new ArrayList<>();
  public final List<CreatedScope> createdScopes = new ArrayList<>();

  @Override
  protected int templateId() {
    return ProcessInstanceModificationValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder.wrapAndApplyHeader(buffer, offset, header).processInstanceKey(processInstanceKey);
    ProcessInstanceModificationValueEncoder.TerminationsEncoder terminationGroup =
        encoder.terminationsCount(terminations.size());
    for (long key : terminations) {
      terminationGroup.next().elementInstanceKey(key);
    }
    ProcessInstanceModificationValueEncoder.ActivationsEncoder activationGroup =
        encoder.activationsCount(activations.size());
    for (Activation activation : activations) {
      activationGroup
          .next()
          .ancestorScopeKey(activation.ancestorScopeKey())
          .flowScopeKey(activation.flowScopeKey())
          .elementInstanceKey(activation.elementInstanceKey())
          .elementId(activation.elementId());
    }
    ProcessInstanceModificationValueEncoder.VariablesEncoder variableGroup =
        encoder.variablesCount(variables.size());
    for (Variables instruction : variables) {
      variableGroup
          .next()
          .activation(instruction.activation())
          .scopeId(instruction.scopeId())
          .putDocument(instruction.document(), 0, instruction.document().length);
    }
    ProcessInstanceModificationValueEncoder.CreatedScopesEncoder createdGroup =
        encoder.createdScopesCount(createdScopes.size());
    for (CreatedScope created : createdScopes) {
      createdGroup
          .next()
          .elementInstanceKey(created.elementInstanceKey())
          .flowScopeKey(created.flowScopeKey());
    }
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    processInstanceKey = decoder.processInstanceKey();
    terminations.clear();
    activations.clear();
    variables.clear();
    createdScopes.clear();
    for (ProcessInstanceModificationValueDecoder.TerminationsDecoder termination :
        decoder.terminations()) {
      terminations.add(termination.elementInstanceKey());
    }
    for (ProcessInstanceModificationValueDecoder.ActivationsDecoder activation :
        decoder.activations()) {
      long ancestor = activation.ancestorScopeKey();
      long flowScope = activation.flowScopeKey();
      long elementKey = activation.elementInstanceKey();
      activations.add(new Activation(activation.elementId(), ancestor, flowScope, elementKey));
    }
    for (ProcessInstanceModificationValueDecoder.VariablesDecoder instruction :
        decoder.variables()) {
      int index = instruction.activation();
      String scopeId = instruction.scopeId();
      byte[] document = new byte[instruction.documentLength()];
      instruction.getDocument(document, 0, document.length);
      variables.add(new Variables(index, scopeId, document));
    }
    for (ProcessInstanceModificationValueDecoder.CreatedScopesDecoder created :
        decoder.createdScopes()) {
      createdScopes.add(new CreatedScope(created.elementInstanceKey(), created.flowScopeKey()));
    }
  }
}
