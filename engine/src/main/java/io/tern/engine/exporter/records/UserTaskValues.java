package io.tern.engine.exporter.records;

import io.camunda.zeebe.protocol.record.RecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableUserTaskRecordValue;
import io.tern.engine.workflow.value.UserTaskValue;
import org.agrona.DirectBuffer;

/**
 * Camunda user tasks. The record's key is the task's, so it is the value's {@code userTaskKey} too.
 * Tern has no deployed forms: {@code formKey} is always -1 and a task's form is its {@code
 * externalFormReference}.
 */
final class UserTaskValues {
  private final UserTaskValue task = new UserTaskValue();

  RecordValue userTask(DirectBuffer bytes, long key) {
    UserTaskValue value = Values.read(task, UserTaskValue::new, bytes);
    return ImmutableUserTaskRecordValue.builder()
        .withUserTaskKey(key)
        .withAssignee(value.assignee)
        .withCandidateGroupsList(value.candidateGroups)
        .withCandidateUsersList(value.candidateUsers)
        .withDueDate(value.dueDate)
        .withFollowUpDate(value.followUpDate)
        .withFormKey(value.formKey)
        .withChangedAttributes(value.changed)
        .withAction(value.action)
        .withExternalFormReference(value.externalFormReference)
        .withCustomHeaders(Documents.headers(value.customHeaders))
        .withCreationTimestamp(value.creationTimestamp)
        .withElementId(value.elementId)
        .withElementInstanceKey(value.elementInstanceKey)
        .withBpmnProcessId(value.bpmnProcessId)
        .withProcessDefinitionVersion(value.processDefinitionVersion)
        .withProcessDefinitionKey(value.processDefinitionKey)
        .withProcessInstanceKey(value.processInstanceKey)
        .withPriority(value.priority)
        .withVariables(Documents.variables(value.variables))
        .withTenantId(Values.TENANT)
        .build();
  }
}
