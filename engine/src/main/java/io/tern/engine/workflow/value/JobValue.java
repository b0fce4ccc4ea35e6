package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.JobValueDecoder;
import io.tern.engine.record.sbe.JobValueEncoder;

/** A job: work for a worker of its type, created by a service task. */
public final class JobValue extends MappedValue<JobValue> {
  private static final ValueFields<JobValue> FIELDS =
      ValueFields.of(JobValue.class, JobValueEncoder.class, JobValueDecoder.class)
          .int64("deadline", v -> v.deadline, (v, x) -> v.deadline = x)
          .int32("retries", v -> v.retries, (v, x) -> v.retries = x)
          .int64(
              "processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
          .int64(
              "elementInstanceKey", v -> v.elementInstanceKey, (v, x) -> v.elementInstanceKey = x)
          .int64(
              "processDefinitionKey",
              v -> v.processDefinitionKey,
              (v, x) -> v.processDefinitionKey = x)
          .int32(
              "processDefinitionVersion",
              v -> v.processDefinitionVersion,
              (v, x) -> v.processDefinitionVersion = x)
          .int64("retryBackoff", v -> v.retryBackoffMs, (v, x) -> v.retryBackoffMs = x)
          .int64("recurAt", v -> v.recurAt, (v, x) -> v.recurAt = x)
          .int64("timeout", v -> v.timeoutMs, (v, x) -> v.timeoutMs = x)
          .string("jobType", v -> v.type, (v, x) -> v.type = x)
          .string("worker", v -> v.worker, (v, x) -> v.worker = x)
          .string("bpmnProcessId", v -> v.bpmnProcessId, (v, x) -> v.bpmnProcessId = x)
          .string("elementId", v -> v.elementId, (v, x) -> v.elementId = x)
          .bytes("customHeaders", v -> v.customHeaders, (v, x) -> v.customHeaders = x)
          .bytes("variables", v -> v.variables, (v, x) -> v.variables = x)
          .string("errorMessage", v -> v.errorMessage, (v, x) -> v.errorMessage = x)
          .string("errorCode", v -> v.errorCode, (v, x) -> v.errorCode = x)
          .build();

  public long deadline = -1;
  public int retries;
  public long processInstanceKey = -1;
  public long elementInstanceKey = -1;
  public long processDefinitionKey = -1;
  public int processDefinitionVersion;
  public long retryBackoffMs;
  public long recurAt = -1;

  /** UPDATE_TIMEOUT only: milliseconds from now to the job's new deadline. */
  public long timeoutMs;

  public String type = "";
  public String worker = "";
  public String bpmnProcessId = "";
  public String elementId = "";
  public byte[] customHeaders = "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
  public byte[] variables = new byte[0];
  public String errorMessage = "";

  /** Of a thrown error (ThrowError); empty otherwise. */
  public String errorCode = "";

  public JobValue() {
    super(FIELDS);
  }
}
