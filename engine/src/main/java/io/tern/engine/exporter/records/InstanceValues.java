package io.tern.engine.exporter.records;

import io.camunda.zeebe.protocol.record.RecordValue;
import io.camunda.zeebe.protocol.record.value.BpmnEventType;
import io.camunda.zeebe.protocol.record.value.ImmutableCompensationSubscriptionRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableIncidentRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessEventRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceCreationRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableTimerRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableVariableDocumentRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableVariableRecordValue;
import io.camunda.zeebe.protocol.record.value.VariableDocumentUpdateSemantic;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.CompensationSubscriptionValue;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.ProcessEventValue;
import io.tern.engine.workflow.value.ProcessInstanceCreationValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.TimerValue;
import io.tern.engine.workflow.value.VariableDocumentValue;
import io.tern.engine.workflow.value.VariableValue;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agrona.DirectBuffer;

/**
 * The values about one process instance's run: its element instances, its creation, its variables,
 * incidents, timers, boundary events and compensation. (Modification and migration, which rework an
 * instance, are in {@link ReworkValues}.)
 */
final class InstanceValues {
  /** Against a log whose call activities never end in what is exported: the oldest go first. */
  private static final int MAX_CALLERS = 1 << 16;

  /**
   * Call activity instances seen active, to their process instance: a called process instance's
   * records name only the call activity instance that called it; Zeebe's also name the caller's
   * process instance.
   */
  private final Map<Long, Long> callers =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
          return size() > MAX_CALLERS;
        }
      };

  private final ProcessInstanceValue processInstance = new ProcessInstanceValue();
  private final ProcessInstanceCreationValue creation = new ProcessInstanceCreationValue();
  private final ProcessEventValue processEvent = new ProcessEventValue();
  private final VariableValue variable = new VariableValue();
  private final VariableDocumentValue document = new VariableDocumentValue();
  private final IncidentValue incident = new IncidentValue();
  private final TimerValue timer = new TimerValue();
  private final CompensationSubscriptionValue compensation = new CompensationSubscriptionValue();

  /**
   * Zeebe's value also has a BPMN event type (NONE, TIMER, MESSAGE, ...) that Tern's record does
   * not hold (it is in the process model): UNSPECIFIED, as Zeebe writes for elements that are no
   * event.
   */
  RecordValue processInstance(DirectBuffer bytes, Intent intent, long key) {
    ProcessInstanceValue value = Values.read(processInstance, ProcessInstanceValue::new, bytes);
    rememberCaller(value, intent, key);
    long parentInstance =
        value.parentElementInstanceKey < 0
            ? -1
            : callers.getOrDefault(value.parentElementInstanceKey, -1L);
    return ImmutableProcessInstanceRecordValue.builder()
        .withBpmnProcessId(value.bpmnProcessId)
        .withVersion(value.version)
        .withProcessDefinitionKey(value.processDefinitionKey)
        .withProcessInstanceKey(value.processInstanceKey)
        .withElementId(value.elementId)
        .withFlowScopeKey(value.flowScopeKey)
        .withBpmnElementType(elementType(value.elementType))
        .withParentProcessInstanceKey(parentInstance)
        .withParentElementInstanceKey(value.parentElementInstanceKey)
        .withBpmnEventType(BpmnEventType.UNSPECIFIED)
        .withTenantId(Values.TENANT)
        .build();
  }

  /** A call activity instance's key (the record's) while it is active, with its instance's. */
  private void rememberCaller(ProcessInstanceValue value, Intent intent, long key) {
    if (value.elementType != BpmnElementType.CALL_ACTIVITY) {
      return;
    }
    if (intent == ProcessInstanceIntent.ELEMENT_ACTIVATING
        || intent == ProcessInstanceIntent.ELEMENT_ACTIVATED) {
      callers.put(key, value.processInstanceKey);
    } else if (intent == ProcessInstanceIntent.ELEMENT_COMPLETED
        || intent == ProcessInstanceIntent.ELEMENT_TERMINATED) {
      callers.remove(key);
    }
  }

  /** Zeebe's start instructions: Tern starts every instance at its none start event, so none. */
  RecordValue creation(DirectBuffer bytes) {
    ProcessInstanceCreationValue value =
        Values.read(creation, ProcessInstanceCreationValue::new, bytes);
    return ImmutableProcessInstanceCreationRecordValue.builder()
        .withBpmnProcessId(value.bpmnProcessId)
        .withVersion(value.version)
        .withProcessDefinitionKey(value.processDefinitionKey)
        .withProcessInstanceKey(value.processInstanceKey)
        .withVariables(Documents.variables(value.variables))
        .withStartInstructions(List.of())
        .withTenantId(Values.TENANT)
        .build();
  }

  RecordValue processEvent(DirectBuffer bytes) {
    ProcessEventValue value = Values.read(processEvent, ProcessEventValue::new, bytes);
    return ImmutableProcessEventRecordValue.builder()
        .withScopeKey(value.scopeKey)
        .withTargetElementId(value.targetElementId)
        .withProcessDefinitionKey(value.processDefinitionKey)
        .withProcessInstanceKey(value.processInstanceKey)
        .withVariables(Documents.variables(value.variables))
        .withTenantId(Values.TENANT)
        .build();
  }

  /** Tern's variable does not hold its process's id: empty (Zeebe's default). */
  RecordValue variable(DirectBuffer bytes) {
    VariableValue value = Values.read(variable, VariableValue::new, bytes);
    return ImmutableVariableRecordValue.builder()
        .withName(value.name)
        .withValue(Documents.compactJson(value.value))
        .withScopeKey(value.scopeKey)
        .withProcessInstanceKey(value.processInstanceKey)
        .withProcessDefinitionKey(value.processDefinitionKey)
        .withBpmnProcessId("")
        .withTenantId(Values.TENANT)
        .build();
  }

  RecordValue variableDocument(DirectBuffer bytes) {
    VariableDocumentValue value = Values.read(document, VariableDocumentValue::new, bytes);
    return ImmutableVariableDocumentRecordValue.builder()
        .withScopeKey(value.scopeKey)
        .withUpdateSemantics(
            value.local
                ? VariableDocumentUpdateSemantic.LOCAL
                : VariableDocumentUpdateSemantic.PROPAGATE)
        .withVariables(Documents.variables(value.variables))
        .withTenantId(Values.TENANT)
        .build();
  }

  /**
   * Zeebe's variable scope is the element instance whose variables the failed expression read:
   * Tern's incident does not hold it, and it is the element instance in every case Tern raises one.
   * The element instance, process definition and calling element paths (a called instance's chain
   * of callers) Tern does not track: empty.
   */
  RecordValue incident(DirectBuffer bytes) {
    IncidentValue value = Values.read(incident, IncidentValue::new, bytes);
    return ImmutableIncidentRecordValue.builder()
        .withErrorType(errorType(value.errorType))
        .withErrorMessage(value.errorMessage)
        .withBpmnProcessId(value.bpmnProcessId)
        .withProcessDefinitionKey(value.processDefinitionKey)
        .withProcessInstanceKey(value.processInstanceKey)
        .withElementId(value.elementId)
        .withElementInstanceKey(value.elementInstanceKey)
        .withJobKey(value.jobKey)
        .withVariableScopeKey(value.elementInstanceKey)
        .withElementInstancePath(List.of())
        .withProcessDefinitionPath(List.of())
        .withCallingElementPath(List.of())
        .withTenantId(Values.TENANT)
        .build();
  }

  RecordValue timer(DirectBuffer bytes) {
    TimerValue value = Values.read(timer, TimerValue::new, bytes);
    return ImmutableTimerRecordValue.builder()
        .withProcessDefinitionKey(value.processDefinitionKey)
        .withElementInstanceKey(value.elementInstanceKey)
        .withProcessInstanceKey(value.processInstanceKey)
        .withDueDate(value.dueDateMs)
        .withTargetElementId(value.targetElementId)
        .withRepetitions(value.repetitions)
        .withTenantId(Values.TENANT)
        .build();
  }

  /**
   * Zeebe's subscription also carries the variables the handler starts with; Tern's handler reads
   * its scope's: empty.
   */
  RecordValue compensation(DirectBuffer bytes) {
    CompensationSubscriptionValue value =
        Values.read(compensation, CompensationSubscriptionValue::new, bytes);
    return ImmutableCompensationSubscriptionRecordValue.builder()
        .withProcessInstanceKey(value.processInstanceKey)
        .withProcessDefinitionKey(value.processDefinitionKey)
        .withCompensableActivityId(value.activityId)
        .withCompensableActivityInstanceKey(value.activityInstanceKey)
        .withCompensableActivityScopeKey(value.scopeKey)
        .withThrowEventId(value.throwEventId)
        .withThrowEventInstanceKey(value.throwEventInstanceKey)
        .withCompensationHandlerId(value.handlerId)
        .withCompensationHandlerInstanceKey(value.handlerInstanceKey)
        .withVariables(Collections.emptyMap())
        .withTenantId(Values.TENANT)
        .build();
  }

  /** Tern's element types all have a Zeebe constant of the same name. */
  private static io.camunda.zeebe.protocol.record.value.BpmnElementType elementType(
      BpmnElementType type) {
    try {
      return io.camunda.zeebe.protocol.record.value.BpmnElementType.valueOf(type.name());
    } catch (IllegalArgumentException notInZeebe) {
      return io.camunda.zeebe.protocol.record.value.BpmnElementType.UNSPECIFIED;
    }
  }

  /** Tern's error types all have a Zeebe constant of the same name. */
  private static io.camunda.zeebe.protocol.record.value.ErrorType errorType(ErrorType type) {
    try {
      return io.camunda.zeebe.protocol.record.value.ErrorType.valueOf(type.name());
    } catch (IllegalArgumentException notInZeebe) {
      return io.camunda.zeebe.protocol.record.value.ErrorType.UNKNOWN;
    }
  }
}
