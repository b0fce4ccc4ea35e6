package io.tern.engine.workflow.processing.elements.lifecycle;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.feel.FeelStrings;
import io.tern.engine.workflow.feel.IoMappings;
import io.tern.engine.workflow.feel.Mapping;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableElement.MultiInstance;
import io.tern.engine.workflow.processing.behavior.incidents.IncidentBehavior;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;
import io.tern.engine.workflow.variables.JsonValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Multi-instance activities: a body instance (which holds the boundary events and takes the
 * outgoing flows) runs one inner instance per item of the input collection, all at once or one
 * after another, and collects their output elements in item order.
 */
public final class MultiInstanceBehavior {
  static final String LOOP_COUNTER = "loopCounter";

  private final ProcessingContext context;
  private final WorkflowState state;
  private final VariableBehavior variables;
  private final IncidentBehavior incidents;
  private final IoMappings expressions = new IoMappings();
  private final ProcessInstanceValue inner = new ProcessInstanceValue();
  private final ElementInstance body = new ElementInstance();

  public MultiInstanceBehavior(
      ProcessingContext context,
      WorkflowState state,
      VariableBehavior variables,
      IncidentBehavior incidents) {
    this.context = context;
    this.state = state;
    this.variables = variables;
    this.incidents = incidents;
  }

  /** The input collection's items (JSON), or null after raising an incident on the body. */
  public List<byte[]> items(
      ProcessingResult result,
      long bodyKey,
      ProcessInstanceValue value,
      ExecutableElement element) {
    String expression = element.loop().inputCollection();
    String problem;
    try {
      byte[] json = evaluate(expression, bodyKey);
      if (JsonDocuments.toJava(json) instanceof List<?> list) {
        List<byte[]> items = new ArrayList<>(list.size());
        for (Object item : list) {
          items.add(JsonValues.fromJava(item));
        }
        return items;
      }
      problem = "it must give a list, but gave " + new String(json, StandardCharsets.UTF_8);
    } catch (FeelStrings.EvaluationException | InvalidVariablesException e) {
      problem = e.getMessage();
    }
    incidents.raise(
        result,
        ErrorType.EXTRACT_VALUE_ERROR,
        bodyKey,
        value,
        "the input collection '" + expression + "' of '" + element.id() + "' fails: " + problem);
    return null;
  }

  private byte[] evaluate(String expression, long scopeKey) {
    return expressions
        .evaluate(List.of(new Mapping(expression, "value")), variables.visible(scopeKey, List.of()))
        .get("value");
  }

  /** The body {@code bodyKey} is active: starts its inner instances (or completes at once). */
  public void start(
      ProcessingResult result,
      long bodyKey,
      ProcessInstanceValue value,
      ExecutableElement element,
      List<byte[]> items) {
    MultiInstance loop = element.loop();
    if (loop.outputCollection() != null) {
      List<Object> nulls = Collections.nCopies(items.size(), null);
      variables.setLocal(
          result,
          bodyKey,
          value.processInstanceKey,
          value.processDefinitionKey,
          Map.of(loop.outputCollection(), JsonValues.fromJava(nulls)));
    }
    if (items.isEmpty()) {
      result.appendCommand(bodyKey, ProcessInstanceIntent.COMPLETE_ELEMENT, value);
    } else if (loop.sequential()) {
      activateInner(result, bodyKey, value, element, 0, items.get(0));
    } else {
      for (int i = 0; i < items.size(); i++) {
        activateInner(result, bodyKey, value, element, i, items.get(i));
      }
    }
  }

  /** Activates the inner instance for item {@code index} (0-based). */
  public void activateInner(
      ProcessingResult result,
      long bodyKey,
      ProcessInstanceValue bodyValue,
      ExecutableElement element,
      int index,
      byte[] item) {
    long innerKey = context.nextKey();
    Map<String, byte[]> locals = new LinkedHashMap<>();
    if (element.loop().inputElement() != null) {
      locals.put(element.loop().inputElement(), item);
    }
    locals.put(LOOP_COUNTER, JsonValues.fromJava((long) index + 1));
    variables.setLocal(
        result, innerKey, bodyValue.processInstanceKey, bodyValue.processDefinitionKey, locals);
    inner.copyFrom(bodyValue);
    inner.flowScopeKey = bodyKey;
    inner.parentElementInstanceKey = -1;
    inner.elementType = element.type();
    result.appendCommand(innerKey, ProcessInstanceIntent.ACTIVATE_ELEMENT, inner);
  }

  /**
   * Inner instance {@code innerKey} is completing: its output element goes into the body's output
   * collection at its item's place. False (after raising an incident) if it cannot be evaluated.
   */
  boolean collectOutput(
      ProcessingResult result,
      long innerKey,
      ProcessInstanceValue value,
      ExecutableElement element) {
    MultiInstance loop = element.loop();
    if (loop.outputCollection() == null) {
      return true;
    }
    byte[] output;
    try {
      output = evaluate(loop.outputElement(), innerKey);
    } catch (FeelStrings.EvaluationException | InvalidVariablesException e) {
      incidents.raise(
          result,
          ErrorType.EXTRACT_VALUE_ERROR,
          innerKey,
          value,
          "the output element '"
              + loop.outputElement()
              + "' of '"
              + element.id()
              + "' fails: "
              + e.getMessage());
      return false;
    }
    long bodyKey = value.flowScopeKey;
    Object collected =
        JsonDocuments.toJava(state.variables().ofScope(bodyKey).get(loop.outputCollection()));
    List<Object> collection =
        collected instanceof List<?> list ? new ArrayList<>(list) : new ArrayList<>();
    int index = loopCounter(innerKey) - 1;
    while (collection.size() <= index) {
      collection.add(null);
    }
    collection.set(index, JsonDocuments.toJava(output));
    variables.setLocal(
        result,
        bodyKey,
        value.processInstanceKey,
        value.processDefinitionKey,
        Map.of(loop.outputCollection(), JsonValues.fromJava(collection)));
    return true;
  }

  /** The 1-based number of inner instance {@code innerKey}'s item. */
  int loopCounter(long innerKey) {
    byte[] json = state.variables().ofScope(innerKey).get(LOOP_COUNTER);
    return json == null ? 1 : Integer.parseInt(new String(json, StandardCharsets.UTF_8).strip());
  }

  /**
   * An inner instance of body {@code bodyKey} completed (and is gone): once none runs, the body is
   * asked to complete, which starts a sequential body's next inner instance, if any.
   */
  void innerCompleted(ProcessingResult result, long bodyKey) {
    if (state.instances().get(bodyKey, body)
        && body.state == ProcessInstanceIntent.ELEMENT_ACTIVATED
        && body.activeChildren == 0) {
      result.appendCommand(bodyKey, ProcessInstanceIntent.COMPLETE_ELEMENT, body.value);
    }
  }

  /** The body completes: its output collection goes to its flow scope. */
  public void completeBody(
      ProcessingResult result,
      long bodyKey,
      ProcessInstanceValue value,
      ExecutableElement element) {
    String name = element.loop().outputCollection();
    if (name == null) {
      return;
    }
    byte[] collection = state.variables().ofScope(bodyKey).get(name);
    if (collection != null) {
      variables.setPropagating(
          result,
          value.flowScopeKey,
          value.processInstanceKey,
          value.processDefinitionKey,
          Map.of(name, collection));
    }
  }

  static boolean isBody(ProcessInstanceValue value) {
    return value.elementType == BpmnElementType.MULTI_INSTANCE_BODY;
  }
}
