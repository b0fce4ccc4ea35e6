package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.JobValueDecoder;
import io.tern.engine.record.sbe.JobValueEncoder;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** A job: work for a worker of its type, created by a service task. */
public final class JobValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final JobValueEncoder encoder = new JobValueEncoder();
  private final JobValueDecoder decoder = new JobValueDecoder();

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

  public JobValue copyFrom(JobValue other) {
    deadline = other.deadline;
    retries = other.retries;
    processInstanceKey = other.processInstanceKey;
    elementInstanceKey = other.elementInstanceKey;
    processDefinitionKey = other.processDefinitionKey;
    processDefinitionVersion = other.processDefinitionVersion;
    retryBackoffMs = other.retryBackoffMs;
    recurAt = other.recurAt;
    timeoutMs = other.timeoutMs;
    type = other.type;
    worker = other.worker;
    bpmnProcessId = other.bpmnProcessId;
    elementId = other.elementId;
    customHeaders = other.customHeaders;
    variables = other.variables;
    errorMessage = other.errorMessage;
    errorCode = other.errorCode;
    return this;
  }

  @Override
  protected int templateId() {
    return JobValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .deadline(deadline)
        .retries(retries)
        .processInstanceKey(processInstanceKey)
        .elementInstanceKey(elementInstanceKey)
        .processDefinitionKey(processDefinitionKey)
        .processDefinitionVersion(processDefinitionVersion)
        .retryBackoff(retryBackoffMs)
        .recurAt(recurAt)
        .timeout(timeoutMs)
        .jobType(type)
        .worker(worker)
        .bpmnProcessId(bpmnProcessId)
        .elementId(elementId)
        .putCustomHeaders(customHeaders, 0, customHeaders.length)
        .putVariables(variables, 0, variables.length)
        .errorMessage(errorMessage)
        .errorCode(errorCode);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    deadline = decoder.deadline();
    retries = decoder.retries();
    processInstanceKey = decoder.processInstanceKey();
    elementInstanceKey = decoder.elementInstanceKey();
    processDefinitionKey = decoder.processDefinitionKey();
    processDefinitionVersion = decoder.processDefinitionVersion();
    retryBackoffMs = decoder.retryBackoff();
    recurAt = decoder.recurAt();
    timeoutMs = decoder.timeout();
    type = decoder.jobType();
    worker = decoder.worker();
    bpmnProcessId = decoder.bpmnProcessId();
    elementId = decoder.elementId();
    customHeaders = new byte[decoder.customHeadersLength()];
    decoder.getCustomHeaders(customHeaders, 0, customHeaders.length);
    variables = new byte[decoder.variablesLength()];
    decoder.getVariables(variables, 0, variables.length);
    errorMessage = decoder.errorMessage();
    errorCode = decoder.errorCode();
  }
}
