package io.tern.engine.gateway;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivatedJob;
import io.tern.engine.workflow.value.JobValue;
import java.nio.charset.StandardCharsets;

/** Between the gateway's protobuf messages and the engine's record values. */
final class Conversions {
  /** Zeebe's tenant for clusters without multi-tenancy. */
  static final String DEFAULT_TENANT = "<default>";

  private Conversions() {}

  /** A JSON document from a request ("" means none). */
  static byte[] json(String document) {
    return document == null || document.isEmpty()
        ? new byte[0]
        : document.getBytes(StandardCharsets.UTF_8);
  }

  /** A JSON document for a response ("{}" for none). */
  static String text(byte[] document) {
    return document.length == 0 ? "{}" : new String(document, StandardCharsets.UTF_8);
  }

  static ActivatedJob activatedJob(long jobKey, JobValue job) {
    return ActivatedJob.newBuilder()
        .setKey(jobKey)
        .setType(job.type)
        .setProcessInstanceKey(job.processInstanceKey)
        .setBpmnProcessId(job.bpmnProcessId)
        .setProcessDefinitionVersion(job.processDefinitionVersion)
        .setProcessDefinitionKey(job.processDefinitionKey)
        .setElementId(job.elementId)
        .setElementInstanceKey(job.elementInstanceKey)
        .setCustomHeaders(text(job.customHeaders))
        .setWorker(job.worker)
        .setRetries(job.retries)
        .setDeadline(job.deadline)
        .setVariables(text(job.variables))
        .setTenantId(DEFAULT_TENANT)
        .build();
  }
}
