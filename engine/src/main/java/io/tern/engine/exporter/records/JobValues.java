package io.tern.engine.exporter.records;

import io.camunda.zeebe.protocol.record.RecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableJobBatchRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableJobRecordValue;
import io.camunda.zeebe.protocol.record.value.JobKind;
import io.camunda.zeebe.protocol.record.value.JobListenerEventType;
import io.camunda.zeebe.protocol.record.value.JobRecordValue;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.JobValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.agrona.DirectBuffer;

/** Jobs, and the batches of them workers activate. */
final class JobValues {
  /** Zeebe's "no timeout given" on a job (only UPDATE_TIMEOUT sets one). */
  private static final long NO_TIMEOUT = -1;

  private final JobValue job = new JobValue();
  private final JobBatchValue batch = new JobBatchValue();

  RecordValue job(DirectBuffer bytes, Intent intent) {
    boolean timeoutGiven =
        intent == JobIntent.UPDATE_TIMEOUT || intent == JobIntent.TIMEOUT_UPDATED;
    return job(Values.read(job, JobValue::new, bytes), timeoutGiven);
  }

  /**
   * Every Tern job is a BPMN element's (Zeebe 8.6 also has execution listener jobs), and Tern has
   * no job UPDATE command, so no changed attributes. Tern writes a timeout only with UPDATE_TIMEOUT
   * (0 elsewhere), where Zeebe leaves -1.
   */
  private static JobRecordValue job(JobValue value, boolean timeoutGiven) {
    return ImmutableJobRecordValue.builder()
        .withType(value.type)
        .withCustomHeaders(Documents.headers(value.customHeaders))
        .withWorker(value.worker)
        .withRetries(value.retries)
        .withRetryBackoff(value.retryBackoffMs)
        .withRecurringTime(value.recurAt)
        .withDeadline(value.deadline)
        .withTimeout(timeoutGiven ? value.timeoutMs : NO_TIMEOUT)
        .withErrorMessage(value.errorMessage)
        .withErrorCode(value.errorCode)
        .withElementId(value.elementId)
        .withElementInstanceKey(value.elementInstanceKey)
        .withBpmnProcessId(value.bpmnProcessId)
        .withProcessDefinitionVersion(value.processDefinitionVersion)
        .withProcessDefinitionKey(value.processDefinitionKey)
        .withProcessInstanceKey(value.processInstanceKey)
        .withVariables(Documents.variables(value.variables))
        .withJobKind(JobKind.BPMN_ELEMENT)
        .withJobListenerEventType(JobListenerEventType.UNSPECIFIED)
        .withChangedAttributes(Set.of())
        .withTenantId(Values.TENANT)
        .build();
  }

  /**
   * A worker asks for jobs of its tenants; Tern has one, Zeebe's default. The jobs of an ACTIVATED
   * batch are shown as the JobRecordValues of ACTIVATED jobs (their variables are those fetched).
   */
  RecordValue batch(DirectBuffer bytes) {
    JobBatchValue value = Values.read(batch, JobBatchValue::new, bytes);
    List<JobRecordValue> jobs = new ArrayList<>(value.jobs.size());
    for (JobValue activated : value.jobs) {
      jobs.add(job(activated, false));
    }
    return ImmutableJobBatchRecordValue.builder()
        .withType(value.type)
        .withWorker(value.worker)
        .withTimeout(value.timeoutMs)
        .withMaxJobsToActivate(value.maxJobsToActivate)
        .withJobKeys(List.copyOf(value.jobKeys))
        .withJobs(jobs)
        .withTruncated(value.truncated)
        .withTenantIds(List.of(Values.TENANT))
        .build();
  }
}
