package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivateJobsRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivateJobsResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivatedJob;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CompleteJobRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.FailJobRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ThrowErrorRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.UpdateJobRetriesRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.UpdateJobTimeoutRequest;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import io.vertx.core.http.HttpMethod;

/**
 * Jobs: activation (long polling, answered with all jobs at once), completion, failure, error, and
 * PATCH of retries and timeout, each the gRPC request of the same name.
 */
final class JobRoutes {
  private JobRoutes() {}

  static void register(Routes routes, GatewayGrpc.AsyncService service) {
    routes.json(HttpMethod.POST, "/v2/jobs/activation", exchange -> activate(exchange, service));
    routes.json(
        HttpMethod.POST,
        "/v2/jobs/{jobKey}/completion",
        exchange -> {
          ObjectNode body = exchange.body();
          Json.unsupported(body, "result", "job results (of user task listeners) are not run");
          service.completeJob(
              CompleteJobRequest.newBuilder()
                  .setJobKey(exchange.pathKey("jobKey"))
                  .setVariables(Json.variables(body, "variables"))
                  .build(),
              exchange.noContentReply());
        });
    routes.json(
        HttpMethod.POST,
        "/v2/jobs/{jobKey}/failure",
        exchange -> {
          ObjectNode body = exchange.body();
          service.failJob(
              FailJobRequest.newBuilder()
                  .setJobKey(exchange.pathKey("jobKey"))
                  .setRetries(Json.integer(body, "retries", 0))
                  .setErrorMessage(Json.text(body, "errorMessage"))
                  .setRetryBackOff(Json.number(body, "retryBackOff", 0))
                  .setVariables(Json.variables(body, "variables"))
                  .build(),
              exchange.noContentReply());
        });
    routes.json(
        HttpMethod.POST,
        "/v2/jobs/{jobKey}/error",
        exchange -> {
          ObjectNode body = exchange.body();
          service.throwError(
              ThrowErrorRequest.newBuilder()
                  .setJobKey(exchange.pathKey("jobKey"))
                  .setErrorCode(Json.text(body, "errorCode"))
                  .setErrorMessage(Json.text(body, "errorMessage"))
                  .setVariables(Json.variables(body, "variables"))
                  .build(),
              exchange.noContentReply());
        });
    routes.json(HttpMethod.PATCH, "/v2/jobs/{jobKey}", exchange -> update(exchange, service));
  }

  private static void activate(Exchange exchange, GatewayGrpc.AsyncService service) {
    ObjectNode body = exchange.body();
    ActivateJobsRequest request =
        ActivateJobsRequest.newBuilder()
            .setType(Json.text(body, "type"))
            .setWorker(Json.text(body, "worker"))
            .setTimeout(Json.number(body, "timeout", 0))
            .setMaxJobsToActivate(Json.integer(body, "maxJobsToActivate", 0))
            .addAllFetchVariable(Json.texts(body, "fetchVariable"))
            .setRequestTimeout(Json.number(body, "requestTimeout", 0))
            .build();
    ObjectNode document = Json.MAPPER.createObjectNode();
    document.putArray("jobs");
    service.activateJobs(request, exchange.gather(JobRoutes::addJobs, document));
  }

  private static void addJobs(ActivateJobsResponse response, ObjectNode document) {
    ArrayNode jobs = (ArrayNode) document.get("jobs");
    for (ActivatedJob job : response.getJobsList()) {
      ObjectNode node = jobs.addObject();
      node.put("jobKey", Long.toString(job.getKey()));
      node.put("type", job.getType());
      node.put("processInstanceKey", Long.toString(job.getProcessInstanceKey()));
      node.put("processDefinitionId", job.getBpmnProcessId());
      node.put("processDefinitionVersion", job.getProcessDefinitionVersion());
      node.put("processDefinitionKey", Long.toString(job.getProcessDefinitionKey()));
      node.put("elementId", job.getElementId());
      node.put("elementInstanceKey", Long.toString(job.getElementInstanceKey()));
      Json.putDocument(node, "customHeaders", job.getCustomHeaders());
      node.put("worker", job.getWorker());
      node.put("retries", job.getRetries());
      node.put("deadline", job.getDeadline());
      Json.putDocument(node, "variables", job.getVariables());
      node.put("tenantId", job.getTenantId());
      node.put("kind", "BPMN_ELEMENT");
      node.put("listenerEventType", "UNSPECIFIED");
      node.putArray("tags");
    }
  }

  /** Retries, then timeout: a PATCH with both sends the two gRPC requests in turn. */
  private static void update(Exchange exchange, GatewayGrpc.AsyncService service) {
    long jobKey = exchange.pathKey("jobKey");
    if (!(exchange.body().get("changeset") instanceof ObjectNode changeset)) {
      throw new InvalidRequest("a job update needs a 'changeset' object");
    }
    boolean retries = changeset.hasNonNull("retries");
    boolean timeout = changeset.hasNonNull("timeout");
    if (!retries && !timeout) {
      throw new InvalidRequest("'changeset' needs 'retries' or 'timeout'");
    }
    int newRetries = Json.integer(changeset, "retries", 0);
    long newTimeout = Json.number(changeset, "timeout", 0);
    Runnable updateTimeout =
        () ->
            service.updateJobTimeout(
                UpdateJobTimeoutRequest.newBuilder()
                    .setJobKey(jobKey)
                    .setTimeout(newTimeout)
                    .build(),
                exchange.noContentReply());
    if (!retries) {
      updateTimeout.run();
      return;
    }
    service.updateJobRetries(
        UpdateJobRetriesRequest.newBuilder().setJobKey(jobKey).setRetries(newRetries).build(),
        timeout ? exchange.then(done -> updateTimeout.run()) : exchange.noContentReply());
  }
}
