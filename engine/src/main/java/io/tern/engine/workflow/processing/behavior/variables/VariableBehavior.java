package io.tern.engine.workflow.processing.behavior.variables;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.VariableIntent;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.state.VariableState;
import io.tern.engine.workflow.value.VariableValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Zeebe's variable rules: a variable is visible in its scope and every scope below it (the closest
 * one wins); a variable set from an element without "local" goes to the nearest scope upwards that
 * already has it, else to the process instance.
 */
public final class VariableBehavior {
  private final ProcessingContext context;
  private final ElementInstanceState instances;
  private final VariableState variables;
  private final ElementInstance scope = new ElementInstance();
  private final VariableValue event = new VariableValue();

  public VariableBehavior(
      ProcessingContext context, ElementInstanceState instances, VariableState variables) {
    this.context = context;
    this.instances = instances;
    this.variables = variables;
  }

  /** Creates variables in one scope (a new process instance's). */
  public void createLocal(
      ProcessingResult result,
      long scopeKey,
      long processInstanceKey,
      long processDefinitionKey,
      Map<String, byte[]> values) {
    for (Map.Entry<String, byte[]> variable : values.entrySet()) {
      append(
          result,
          VariableIntent.CREATED,
          scopeKey,
          processInstanceKey,
          processDefinitionKey,
          variable.getKey(),
          variable.getValue());
    }
  }

  /** Sets variables in one scope: created, or updated where the scope has them already. */
  public void setLocal(
      ProcessingResult result,
      long scopeKey,
      long processInstanceKey,
      long processDefinitionKey,
      Map<String, byte[]> values) {
    for (Map.Entry<String, byte[]> variable : values.entrySet()) {
      append(
          result,
          variables.has(scopeKey, variable.getKey())
              ? VariableIntent.UPDATED
              : VariableIntent.CREATED,
          scopeKey,
          processInstanceKey,
          processDefinitionKey,
          variable.getKey(),
          variable.getValue());
    }
  }

  /** Sets variables from {@code elementInstanceKey} upwards, as a job completion does. */
  public void setPropagating(
      ProcessingResult result,
      long elementInstanceKey,
      long processInstanceKey,
      long processDefinitionKey,
      Map<String, byte[]> values) {
    for (Map.Entry<String, byte[]> variable : values.entrySet()) {
      long target = processInstanceKey;
      VariableIntent intent = VariableIntent.CREATED;
      for (long key = elementInstanceKey; key >= 0; key = parentOf(key)) {
        if (variables.has(key, variable.getKey())) {
          target = key;
          intent = VariableIntent.UPDATED;
          break;
        }
      }
      append(
          result,
          intent,
          target,
          processInstanceKey,
          processDefinitionKey,
          variable.getKey(),
          variable.getValue());
    }
  }

  /** The variables visible from {@code elementInstanceKey} ({@code names} only, unless empty). */
  public Map<String, byte[]> visible(long elementInstanceKey, List<String> names) {
    Map<String, byte[]> found = new LinkedHashMap<>();
    for (long key = elementInstanceKey; key >= 0; key = parentOf(key)) {
      for (Map.Entry<String, byte[]> variable : variables.ofScope(key).entrySet()) {
        if (names.isEmpty() || names.contains(variable.getKey())) {
          found.putIfAbsent(variable.getKey(), variable.getValue());
        }
      }
    }
    return found;
  }

  private long parentOf(long elementInstanceKey) {
    return instances.get(elementInstanceKey, scope) ? scope.value.flowScopeKey : -1;
  }

  private void append(
      ProcessingResult result,
      VariableIntent intent,
      long scopeKey,
      long processInstanceKey,
      long processDefinitionKey,
      String name,
      byte[] json) {
    event.scopeKey = scopeKey;
    event.processInstanceKey = processInstanceKey;
    event.processDefinitionKey = processDefinitionKey;
    event.name = name;
    event.value = json;
    result.appendEvent(context.nextKey(), intent, event);
  }
}
