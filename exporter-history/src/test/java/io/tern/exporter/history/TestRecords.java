package io.tern.exporter.history;

import io.camunda.zeebe.protocol.record.ImmutableRecord;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.RecordValue;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.intent.DeploymentIntent;
import io.camunda.zeebe.protocol.record.intent.IncidentIntent;
import io.camunda.zeebe.protocol.record.intent.Intent;
import io.camunda.zeebe.protocol.record.intent.JobBatchIntent;
import io.camunda.zeebe.protocol.record.intent.JobIntent;
import io.camunda.zeebe.protocol.record.intent.ProcessInstanceIntent;
import io.camunda.zeebe.protocol.record.intent.UserTaskIntent;
import io.camunda.zeebe.protocol.record.intent.VariableIntent;
import io.camunda.zeebe.protocol.record.value.BpmnElementType;
import io.camunda.zeebe.protocol.record.value.BpmnEventType;
import io.camunda.zeebe.protocol.record.value.ErrorType;
import io.camunda.zeebe.protocol.record.value.ImmutableDeploymentRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableIncidentRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableJobBatchRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableJobRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableUserTaskRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableVariableRecordValue;
import io.camunda.zeebe.protocol.record.value.JobRecordValue;
import io.camunda.zeebe.protocol.record.value.deployment.ImmutableProcessMetadataValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a partition's log as Zeebe 8.6 records (the protocol's immutable classes), with rising
 * positions and timestamps that the test sets ({@link #at}). Every record built is also kept in
 * {@link #log}, in order.
 */
final class TestRecords {
  static final long DEFINITION_KEY = 2251799813685249L;
  static final String PROCESS_ID = "order";

  final int partitionId;
  final List<Record<?>> log = new ArrayList<>();
  private long position;
  private long key;
  private Instant time;

  TestRecords(int partitionId, Instant start) {
    this.partitionId = partitionId;
    this.time = start;
    this.key = ((long) partitionId << 51) + 100;
  }

  /** Records from now on carry this timestamp. */
  TestRecords at(Instant time) {
    this.time = time;
    return this;
  }

  long nextKey() {
    return ++key;
  }

  Instant time() {
    return time;
  }

  Record<?> deployment() {
    return add(
        key,
        ValueType.DEPLOYMENT,
        DeploymentIntent.CREATED,
        ImmutableDeploymentRecordValue.builder()
            .withDeploymentKey(DEFINITION_KEY - 1)
            .addProcessesMetadata(
                ImmutableProcessMetadataValue.builder()
                    .withBpmnProcessId(PROCESS_ID)
                    .withVersion(1)
                    .withVersionTag("")
                    .withProcessDefinitionKey(DEFINITION_KEY)
                    .withResourceName("order.bpmn")
                    .withChecksum(new byte[32])
                    .withDeploymentKey(DEFINITION_KEY - 1)
                    .withTenantId("<default>")
                    .build())
            .withTenantId("<default>")
            .build());
  }

  Record<?> process(ProcessInstanceIntent intent, long instanceKey) {
    return element(intent, instanceKey, instanceKey, PROCESS_ID, BpmnElementType.PROCESS, -1);
  }

  Record<?> element(
      ProcessInstanceIntent intent,
      long elementKey,
      long instanceKey,
      String elementId,
      BpmnElementType type,
      long flowScopeKey) {
    return add(
        elementKey,
        ValueType.PROCESS_INSTANCE,
        intent,
        ImmutableProcessInstanceRecordValue.builder()
            .withBpmnProcessId(PROCESS_ID)
            .withVersion(1)
            .withProcessDefinitionKey(DEFINITION_KEY)
            .withProcessInstanceKey(instanceKey)
            .withElementId(elementId)
            .withFlowScopeKey(flowScopeKey)
            .withBpmnElementType(type)
            .withBpmnEventType(BpmnEventType.UNSPECIFIED)
            .withParentProcessInstanceKey(-1)
            .withParentElementInstanceKey(-1)
            .withTenantId("<default>")
            .build());
  }

  /** The records of a whole element's life: activating and activated, then completing/completed. */
  List<Record<?>> elementPassing(long instanceKey, String elementId, BpmnElementType type) {
    long elementKey = nextKey();
    return List.of(
        element(
            ProcessInstanceIntent.ELEMENT_ACTIVATING,
            elementKey,
            instanceKey,
            elementId,
            type,
            instanceKey),
        element(
            ProcessInstanceIntent.ELEMENT_ACTIVATED,
            elementKey,
            instanceKey,
            elementId,
            type,
            instanceKey),
        element(
            ProcessInstanceIntent.ELEMENT_COMPLETING,
            elementKey,
            instanceKey,
            elementId,
            type,
            instanceKey),
        element(
            ProcessInstanceIntent.ELEMENT_COMPLETED,
            elementKey,
            instanceKey,
            elementId,
            type,
            instanceKey));
  }

  JobRecordValue jobValue(
      long instanceKey, long elementKey, int retries, String worker, String error) {
    return ImmutableJobRecordValue.builder()
        .withType("ship")
        .withWorker(worker)
        .withRetries(retries)
        .withDeadline(worker.isEmpty() ? -1 : time.toEpochMilli() + 300_000)
        .withErrorMessage(error)
        .withErrorCode("")
        .withElementId("ship")
        .withElementInstanceKey(elementKey)
        .withProcessInstanceKey(instanceKey)
        .withBpmnProcessId(PROCESS_ID)
        .withProcessDefinitionVersion(1)
        .withProcessDefinitionKey(DEFINITION_KEY)
        .withTenantId("<default>")
        .build();
  }

  Record<?> job(JobIntent intent, long jobKey, JobRecordValue value) {
    return add(jobKey, ValueType.JOB, intent, value);
  }

  Record<?> jobsActivated(long jobKey, JobRecordValue value) {
    return add(
        -1,
        ValueType.JOB_BATCH,
        JobBatchIntent.ACTIVATED,
        ImmutableJobBatchRecordValue.builder()
            .withType("ship")
            .withWorker(value.getWorker())
            .withTimeout(300_000)
            .withMaxJobsToActivate(10)
            .addJobKey(jobKey)
            .addJob(value)
            .withTruncated(false)
            .addTenantId("<default>")
            .build());
  }

  Record<?> variable(
      VariableIntent intent, long scopeKey, long instanceKey, String name, String json) {
    // Tern gives every variable event a key of its own (docs/history.md).
    return add(
        nextKey(),
        ValueType.VARIABLE,
        intent,
        ImmutableVariableRecordValue.builder()
            .withName(name)
            .withValue(json)
            .withScopeKey(scopeKey)
            .withProcessInstanceKey(instanceKey)
            .withProcessDefinitionKey(DEFINITION_KEY)
            .withBpmnProcessId("")
            .withTenantId("<default>")
            .build());
  }

  Record<?> incident(
      IncidentIntent intent, long incidentKey, long instanceKey, long elementKey, long jobKey) {
    return add(
        incidentKey,
        ValueType.INCIDENT,
        intent,
        ImmutableIncidentRecordValue.builder()
            .withErrorType(ErrorType.JOB_NO_RETRIES)
            .withErrorMessage("No more retries left.")
            .withBpmnProcessId(PROCESS_ID)
            .withProcessDefinitionKey(DEFINITION_KEY)
            .withProcessInstanceKey(instanceKey)
            .withElementId("ship")
            .withElementInstanceKey(elementKey)
            .withJobKey(jobKey)
            .withVariableScopeKey(elementKey)
            .withTenantId("<default>")
            .build());
  }

  /** A user task as Zeebe 8.6 writes each of its events: the whole task. */
  ImmutableUserTaskRecordValue.Builder userTaskValue(
      long taskKey, long instanceKey, long elementKey) {
    return ImmutableUserTaskRecordValue.builder()
        .withUserTaskKey(taskKey)
        .withAssignee("")
        .withDueDate("")
        .withFollowUpDate("")
        .withFormKey(-1)
        .withExternalFormReference("")
        .withAction("")
        .withCreationTimestamp(time.toEpochMilli())
        .withElementId("approve")
        .withElementInstanceKey(elementKey)
        .withBpmnProcessId(PROCESS_ID)
        .withProcessDefinitionVersion(1)
        .withProcessDefinitionKey(DEFINITION_KEY)
        .withProcessInstanceKey(instanceKey)
        .withPriority(50)
        .withTenantId("<default>");
  }

  Record<?> userTask(UserTaskIntent intent, long taskKey, RecordValue value) {
    return add(taskKey, ValueType.USER_TASK, intent, value);
  }

  /** A record the history store has no use for: a command. */
  Record<?> command() {
    return add(
        -1, ValueType.JOB, JobIntent.COMPLETE, jobValue(-1, -1, 0, "", ""), RecordType.COMMAND);
  }

  private Record<?> add(long key, ValueType type, Intent intent, RecordValue value) {
    return add(key, type, intent, value, RecordType.EVENT);
  }

  private Record<?> add(
      long key, ValueType type, Intent intent, RecordValue value, RecordType recordType) {
    Record<?> record =
        ImmutableRecord.builder()
            .withPosition(++position)
            .withSourceRecordPosition(position - 1)
            .withKey(key)
            .withTimestamp(time.toEpochMilli())
            .withPartitionId(partitionId)
            .withRecordType(recordType)
            .withValueType(type)
            .withIntent(intent)
            .withBrokerVersion("8.6.0")
            .withRecordVersion(1)
            .withValue(value)
            .build();
    log.add(record);
    return record;
  }
}
