package io.tern.exporter.history;

import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
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
import io.camunda.zeebe.protocol.record.value.DeploymentRecordValue;
import io.camunda.zeebe.protocol.record.value.IncidentRecordValue;
import io.camunda.zeebe.protocol.record.value.JobBatchRecordValue;
import io.camunda.zeebe.protocol.record.value.JobRecordValue;
import io.camunda.zeebe.protocol.record.value.ProcessInstanceRecordValue;
import io.camunda.zeebe.protocol.record.value.UserTaskRecordValue;
import io.camunda.zeebe.protocol.record.value.VariableRecordValue;
import io.camunda.zeebe.protocol.record.value.deployment.ProcessMetadataValue;
import io.tern.exporter.history.Tables.ElementInstance;
import io.tern.exporter.history.Tables.Incident;
import io.tern.exporter.history.Tables.Job;
import io.tern.exporter.history.Tables.ProcessDefinition;
import io.tern.exporter.history.Tables.ProcessInstance;
import io.tern.exporter.history.Tables.UserTask;
import io.tern.exporter.history.Tables.Variable;
import io.tern.exporter.history.Tables.VariableHistory;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Turns records into rows: the only place that knows what each value type and intent means for the
 * history tables. Each row carries what its record knows and leaves the rest null (a completion
 * knows no start), so that it merges into what earlier records wrote.
 */
final class RecordRows {
  /** The value types the history store reads; the record filter passes only these, and events. */
  static final Set<ValueType> VALUE_TYPES =
      EnumSet.of(
          ValueType.DEPLOYMENT,
          ValueType.PROCESS_INSTANCE,
          ValueType.JOB,
          ValueType.JOB_BATCH,
          ValueType.VARIABLE,
          ValueType.INCIDENT,
          ValueType.USER_TASK);

  /** How much of a variable's value the indexed {@code value_prefix} column holds. */
  static final int VALUE_PREFIX_LENGTH = 256;

  /** Every VARCHAR column's width. */
  static final int SHORT_TEXT_LENGTH = 255;

  static final String ACTIVE = "ACTIVE";
  static final String COMPLETED = "COMPLETED";
  static final String TERMINATED = "TERMINATED";
  static final String RESOLVED = "RESOLVED";

  private RecordRows() {}

  static boolean accepts(RecordType type) {
    return type == RecordType.EVENT;
  }

  static boolean accepts(ValueType type) {
    return VALUE_TYPES.contains(type);
  }

  /** Adds the rows {@code record} makes (none for the intents the store ignores). */
  static void add(Record<?> record, RowBuffer buffer) {
    if (record.getRecordType() != RecordType.EVENT) {
      return;
    }
    switch (record.getValueType()) {
      case DEPLOYMENT -> deployment(record, (DeploymentRecordValue) record.getValue(), buffer);
      case PROCESS_INSTANCE ->
          processInstance(record, (ProcessInstanceRecordValue) record.getValue(), buffer);
      case JOB -> job(record, (JobRecordValue) record.getValue(), buffer);
      case JOB_BATCH -> jobBatch(record, (JobBatchRecordValue) record.getValue(), buffer);
      case VARIABLE -> variable(record, (VariableRecordValue) record.getValue(), buffer);
      case INCIDENT -> incident(record, (IncidentRecordValue) record.getValue(), buffer);
      case USER_TASK -> userTask(record, (UserTaskRecordValue) record.getValue(), buffer);
      default -> {}
    }
  }

  private static void deployment(Record<?> record, DeploymentRecordValue value, RowBuffer buffer) {
    if (record.getIntent() != DeploymentIntent.CREATED) {
      return;
    }
    // Each partition logs the deployment; the first to write a definition keeps it.
    for (ProcessMetadataValue process : value.getProcessesMetadata()) {
      buffer.add(
          Tables.PROCESS_DEFINITIONS
              .newRow()
              .set(ProcessDefinition.PROCESS_DEFINITION_KEY, process.getProcessDefinitionKey())
              .set(ProcessDefinition.BPMN_PROCESS_ID, process.getBpmnProcessId())
              .set(ProcessDefinition.VERSION, process.getVersion())
              .set(ProcessDefinition.VERSION_TAG, text(process.getVersionTag()))
              .set(ProcessDefinition.RESOURCE_NAME, text(process.getResourceName()))
              .set(ProcessDefinition.DEPLOYMENT_KEY, key(value.getDeploymentKey()))
              .set(ProcessDefinition.DEPLOYED_AT, time(record))
              .set(ProcessDefinition.PARTITION_ID, record.getPartitionId())
              .set(ProcessDefinition.POSITION, record.getPosition()));
    }
  }

  private static void processInstance(
      Record<?> record, ProcessInstanceRecordValue value, RowBuffer buffer) {
    Intent intent = record.getIntent();
    if (!(intent instanceof ProcessInstanceIntent pi)) {
      return;
    }
    String state;
    Instant start = null;
    Instant end = null;
    switch (pi) {
      case ELEMENT_ACTIVATING -> {
        state = ACTIVE;
        start = time(record);
      }
      case ELEMENT_ACTIVATED, ELEMENT_COMPLETING, ELEMENT_TERMINATING -> state = ACTIVE;
      case ELEMENT_COMPLETED -> {
        state = COMPLETED;
        end = time(record);
      }
      case ELEMENT_TERMINATED -> {
        state = TERMINATED;
        end = time(record);
      }
      // Moved to another definition or element: the ids change, the state does not.
      case ELEMENT_MIGRATED -> state = null;
      default -> {
        return;
      }
    }
    // Activating an element (the process too) is the first record of its key.
    boolean created = pi == ProcessInstanceIntent.ELEMENT_ACTIVATING;
    BpmnElementType type = value.getBpmnElementType();
    if (type == BpmnElementType.PROCESS) {
      Row<ProcessInstance> row = Tables.PROCESS_INSTANCES.newRow();
      buffer.add(
          (created ? row.created() : row)
              .set(ProcessInstance.PROCESS_INSTANCE_KEY, record.getKey())
              .set(ProcessInstance.PROCESS_DEFINITION_KEY, key(value.getProcessDefinitionKey()))
              .set(ProcessInstance.BPMN_PROCESS_ID, text(value.getBpmnProcessId()))
              .set(ProcessInstance.VERSION, value.getVersion())
              .set(ProcessInstance.STATE, state)
              .set(ProcessInstance.START_DATE, start)
              .set(ProcessInstance.END_DATE, end)
              .set(
                  ProcessInstance.PARENT_PROCESS_INSTANCE_KEY,
                  key(value.getParentProcessInstanceKey()))
              .set(
                  ProcessInstance.PARENT_ELEMENT_INSTANCE_KEY,
                  key(value.getParentElementInstanceKey()))
              .set(ProcessInstance.PARTITION_ID, record.getPartitionId())
              .set(ProcessInstance.POSITION, record.getPosition()));
    } else if (type != BpmnElementType.SEQUENCE_FLOW) {
      Row<ElementInstance> row = Tables.ELEMENT_INSTANCES.newRow();
      buffer.add(
          (created ? row.created() : row)
              .set(ElementInstance.ELEMENT_INSTANCE_KEY, record.getKey())
              .set(ElementInstance.PROCESS_INSTANCE_KEY, value.getProcessInstanceKey())
              .set(ElementInstance.PROCESS_DEFINITION_KEY, key(value.getProcessDefinitionKey()))
              .set(ElementInstance.BPMN_PROCESS_ID, text(value.getBpmnProcessId()))
              .set(ElementInstance.ELEMENT_ID, text(value.getElementId()))
              .set(ElementInstance.ELEMENT_TYPE, type == null ? null : type.name())
              .set(ElementInstance.FLOW_SCOPE_KEY, key(value.getFlowScopeKey()))
              .set(ElementInstance.STATE, state)
              .set(ElementInstance.START_DATE, start)
              .set(ElementInstance.END_DATE, end)
              .set(ElementInstance.PARTITION_ID, record.getPartitionId())
              .set(ElementInstance.POSITION, record.getPosition()));
    }
  }

  private static void job(Record<?> record, JobRecordValue value, RowBuffer buffer) {
    if (!(record.getIntent() instanceof JobIntent intent)) {
      return;
    }
    String state;
    Instant created = null;
    Instant ended = null;
    switch (intent) {
      case CREATED -> {
        state = "CREATED";
        created = time(record);
      }
      case COMPLETED, CANCELED -> {
        state = intent.name();
        ended = time(record);
      }
      // The job's last lifecycle event; it may be activated again after each of these.
      case FAILED, TIMED_OUT, ERROR_THROWN, RECURRED_AFTER_BACKOFF, YIELDED ->
          state = intent.name();
      // Changes to the job that leave its state as it was.
      case RETRIES_UPDATED, TIMEOUT_UPDATED, UPDATED, MIGRATED -> state = null;
      default -> {
        return;
      }
    }
    Row<Job> row = jobRow(record, record.getKey(), value, state);
    row.set(Job.CREATED_AT, created).set(Job.ENDED_AT, ended);
    if (intent == JobIntent.CREATED) {
      row.created();
    }
    buffer.add(row);
  }

  /** Activation: Zeebe logs it as one JOB_BATCH record listing the jobs it activated. */
  private static void jobBatch(Record<?> record, JobBatchRecordValue value, RowBuffer buffer) {
    if (record.getIntent() != JobBatchIntent.ACTIVATED) {
      return;
    }
    List<Long> keys = value.getJobKeys();
    List<JobRecordValue> jobs = value.getJobs();
    for (int i = 0; i < Math.min(keys.size(), jobs.size()); i++) {
      Row<Job> row = jobRow(record, keys.get(i), jobs.get(i), "ACTIVATED");
      if (row.get(Job.WORKER) == null) {
        row.set(Job.WORKER, text(value.getWorker()));
      }
      buffer.add(row);
    }
  }

  private static Row<Job> jobRow(Record<?> record, long key, JobRecordValue value, String state) {
    return Tables.JOBS
        .newRow()
        .set(Job.JOB_KEY, key)
        .set(Job.TYPE, text(value.getType()))
        .set(Job.WORKER, text(value.getWorker()))
        .set(Job.STATE, state)
        .set(Job.RETRIES, value.getRetries())
        .set(Job.PROCESS_INSTANCE_KEY, key(value.getProcessInstanceKey()))
        .set(Job.ELEMENT_INSTANCE_KEY, key(value.getElementInstanceKey()))
        .set(Job.PROCESS_DEFINITION_KEY, key(value.getProcessDefinitionKey()))
        .set(Job.BPMN_PROCESS_ID, text(value.getBpmnProcessId()))
        .set(Job.ELEMENT_ID, text(value.getElementId()))
        .set(Job.ERROR_CODE, text(value.getErrorCode()))
        .set(Job.ERROR_MESSAGE, text(value.getErrorMessage()))
        .set(
            Job.DEADLINE,
            value.getDeadline() > 0 ? Instant.ofEpochMilli(value.getDeadline()) : null)
        .set(Job.PARTITION_ID, record.getPartitionId())
        .set(Job.POSITION, record.getPosition());
  }

  private static void variable(Record<?> record, VariableRecordValue value, RowBuffer buffer) {
    Intent intent = record.getIntent();
    if (intent != VariableIntent.CREATED && intent != VariableIntent.UPDATED) {
      return;
    }
    String json = value.getValue();
    String prefix = prefix(json);
    Instant at = time(record);
    Row<Variable> row = Tables.VARIABLES.newRow();
    buffer.add(
        (intent == VariableIntent.CREATED ? row.created() : row)
            .set(Variable.SCOPE_KEY, value.getScopeKey())
            .set(Variable.NAME, value.getName())
            .set(Variable.VARIABLE_KEY, record.getKey())
            .set(Variable.PROCESS_INSTANCE_KEY, value.getProcessInstanceKey())
            .set(Variable.PROCESS_DEFINITION_KEY, key(value.getProcessDefinitionKey()))
            .set(Variable.VALUE_JSON, json)
            .set(Variable.VALUE_PREFIX, prefix)
            .set(Variable.VALUE_TRUNCATED, json != null && prefix.length() < json.length())
            .set(Variable.CREATED_AT, intent == VariableIntent.CREATED ? at : null)
            .set(Variable.UPDATED_AT, at)
            .set(Variable.PARTITION_ID, record.getPartitionId())
            .set(Variable.POSITION, record.getPosition()));
    // One entry per record: its key is the record's position, the first record of that key.
    buffer.add(
        Tables.VARIABLE_HISTORY
            .newRow()
            .created()
            .set(VariableHistory.PARTITION_ID, record.getPartitionId())
            .set(VariableHistory.POSITION, record.getPosition())
            .set(VariableHistory.VARIABLE_KEY, record.getKey())
            .set(VariableHistory.SCOPE_KEY, value.getScopeKey())
            .set(VariableHistory.NAME, value.getName())
            .set(VariableHistory.PROCESS_INSTANCE_KEY, value.getProcessInstanceKey())
            .set(VariableHistory.INTENT, ((VariableIntent) intent).name())
            .set(VariableHistory.VALUE_JSON, json)
            .set(VariableHistory.CHANGED_AT, at));
  }

  private static void incident(Record<?> record, IncidentRecordValue value, RowBuffer buffer) {
    if (!(record.getIntent() instanceof IncidentIntent intent)) {
      return;
    }
    String state;
    Instant created = null;
    Instant resolved = null;
    switch (intent) {
      case CREATED -> {
        state = ACTIVE;
        created = time(record);
      }
      case RESOLVED -> {
        state = RESOLVED;
        resolved = time(record);
      }
      case MIGRATED -> state = null;
      default -> {
        return;
      }
    }
    Row<Incident> row = Tables.INCIDENTS.newRow();
    buffer.add(
        (intent == IncidentIntent.CREATED ? row.created() : row)
            .set(Incident.INCIDENT_KEY, record.getKey())
            .set(
                Incident.ERROR_TYPE,
                value.getErrorType() == null ? null : value.getErrorType().name())
            .set(Incident.ERROR_MESSAGE, text(value.getErrorMessage()))
            .set(Incident.STATE, state)
            .set(Incident.PROCESS_INSTANCE_KEY, key(value.getProcessInstanceKey()))
            .set(Incident.ELEMENT_INSTANCE_KEY, key(value.getElementInstanceKey()))
            .set(Incident.PROCESS_DEFINITION_KEY, key(value.getProcessDefinitionKey()))
            .set(Incident.BPMN_PROCESS_ID, text(value.getBpmnProcessId()))
            .set(Incident.ELEMENT_ID, text(value.getElementId()))
            .set(Incident.JOB_KEY, key(value.getJobKey()))
            .set(Incident.CREATED_AT, created)
            .set(Incident.RESOLVED_AT, resolved)
            .set(Incident.PARTITION_ID, record.getPartitionId())
            .set(Incident.POSITION, record.getPosition()));
    buffer.incidentChanged(value.getProcessInstanceKey(), value.getElementInstanceKey());
  }

  /**
   * A user task's row, from each of its settled events (the -ING ones are followed by their -ED in
   * the same batch of the log). Each carries the whole task, so the row is the task as it is now.
   */
  private static void userTask(Record<?> record, UserTaskRecordValue value, RowBuffer buffer) {
    if (!(record.getIntent() instanceof UserTaskIntent intent)) {
      return;
    }
    String state;
    Instant created = null;
    Instant ended = null;
    switch (intent) {
      case CREATED -> {
        state = "CREATED";
        created = time(record);
      }
      case COMPLETED, CANCELED -> {
        state = intent.name();
        ended = time(record);
      }
      // Still waiting for a person; what changed is in the value.
      case ASSIGNED, UPDATED -> state = "CREATED";
      // Moved to another definition or element: the ids change, the state does not.
      case MIGRATED -> state = null;
      default -> {
        return;
      }
    }
    Row<UserTask> row = Tables.USER_TASKS.newRow();
    buffer.add(
        (intent == UserTaskIntent.CREATED ? row.created() : row)
            .set(UserTask.USER_TASK_KEY, record.getKey())
            .set(UserTask.STATE, state)
            .set(UserTask.ASSIGNEE, text(value.getAssignee()))
            .set(UserTask.CANDIDATE_GROUPS, JsonText.list(value.getCandidateGroupsList()))
            .set(UserTask.CANDIDATE_USERS, JsonText.list(value.getCandidateUsersList()))
            .set(UserTask.DUE_DATE, date(value.getDueDate()))
            .set(UserTask.FOLLOW_UP_DATE, date(value.getFollowUpDate()))
            .set(UserTask.PRIORITY, value.getPriority())
            .set(UserTask.FORM_KEY, key(value.getFormKey()))
            .set(UserTask.EXTERNAL_FORM_REFERENCE, text(value.getExternalFormReference()))
            .set(UserTask.CUSTOM_HEADERS, JsonText.object(value.getCustomHeaders()))
            .set(UserTask.ELEMENT_ID, text(value.getElementId()))
            .set(UserTask.ELEMENT_INSTANCE_KEY, key(value.getElementInstanceKey()))
            .set(UserTask.PROCESS_INSTANCE_KEY, key(value.getProcessInstanceKey()))
            .set(UserTask.PROCESS_DEFINITION_KEY, key(value.getProcessDefinitionKey()))
            .set(UserTask.BPMN_PROCESS_ID, text(value.getBpmnProcessId()))
            .set(UserTask.PROCESS_DEFINITION_VERSION, value.getProcessDefinitionVersion())
            .set(UserTask.TENANT_ID, text(value.getTenantId()))
            .set(UserTask.CREATION_DATE, created)
            .set(UserTask.COMPLETION_DATE, ended)
            .set(UserTask.PARTITION_ID, record.getPartitionId())
            .set(UserTask.POSITION, record.getPosition()));
  }

  /**
   * A user task's due or follow-up date (ISO 8601 text in the record, empty for none). One that
   * does not parse is stored as none: a value the store cannot hold must not stop the export.
   */
  static Instant date(String value) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      return OffsetDateTime.parse(value).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** The first {@link #VALUE_PREFIX_LENGTH} characters, never ending in half a surrogate pair. */
  static String prefix(String value) {
    if (value == null || value.length() <= VALUE_PREFIX_LENGTH) {
      return value;
    }
    int end = VALUE_PREFIX_LENGTH;
    if (Character.isHighSurrogate(value.charAt(end - 1))) {
      end--;
    }
    return value.substring(0, end);
  }

  private static Instant time(Record<?> record) {
    return Instant.ofEpochMilli(record.getTimestamp());
  }

  /** Zeebe writes -1 (or 0 for none in a few older fields) where a key is absent. */
  private static Long key(long key) {
    return key > 0 ? key : null;
  }

  private static String text(String value) {
    return value == null || value.isEmpty() ? null : value;
  }
}
