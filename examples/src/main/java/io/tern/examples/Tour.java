package io.tern.examples;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.ProcessInstanceResult;
import io.camunda.client.api.worker.JobWorker;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * The five-minute tour: deploys {@code order.bpmn} (check stock, then ship or back-order), starts
 * two job workers, and creates an order with the official Java client, waiting for its result. The
 * client is built as Camunda's documentation builds it, with its defaults: it sends what it can
 * over REST and streams jobs over gRPC. {@code java -jar tern-examples.jar [grpc-host:port
 * [rest-host:port]]} (defaults {@code localhost:26500} and {@code localhost:8080}, the broker of
 * {@code bin/broker}).
 */
public final class Tour {
  private Tour() {}

  public static void main(String[] args) {
    String grpc = args.length > 0 ? args[0] : "localhost:26500";
    String rest = args.length > 1 ? args[1] : "localhost:8080";
    try (CamundaClient client =
        CamundaClient.newClientBuilder()
            .grpcAddress(URI.create("http://" + grpc))
            .restAddress(URI.create("http://" + rest))
            .defaultRequestTimeout(Duration.ofSeconds(20))
            .build()) {
      run(client, System.out);
    }
  }

  /** The tour on {@code client}; returns the finished order's variables. */
  public static Map<String, Object> run(CamundaClient client, PrintStream out) {
    long definition =
        client
            .newDeployResourceCommand()
            .addResourceFromClasspath("order.bpmn")
            .send()
            .join()
            .getProcesses()
            .get(0)
            .getProcessDefinitionKey();
    out.println("Deployed order.bpmn: process definition " + definition);

    try (JobWorker stock =
            client
                .newWorker()
                .jobType("check-stock")
                .handler(
                    (jobClient, job) -> {
                      String item = (String) job.getVariablesAsMap().get("item");
                      boolean inStock = !item.startsWith("rare");
                      out.println(
                          "  check-stock: " + item + (inStock ? " is" : " is not") + " in stock");
                      jobClient
                          .newCompleteCommand(job)
                          .variables(Map.of("inStock", inStock))
                          .send()
                          .join();
                    })
                .open();
        JobWorker ship =
            client
                .newWorker()
                .jobType("ship")
                .handler(
                    (jobClient, job) -> {
                      out.println("  ship: parcel handed to the carrier");
                      jobClient
                          .newCompleteCommand(job)
                          .variables(Map.of("trackingId", "T-" + job.getProcessInstanceKey()))
                          .send()
                          .join();
                    })
                .open()) {
      ProcessInstanceResult order =
          client
              .newCreateInstanceCommand()
              .bpmnProcessId("order")
              .latestVersion()
              .variables(Map.of("orderId", "A-1", "item", "teapot"))
              .withResult()
              .send()
              .join();
      out.println(
          "Order " + order.getProcessInstanceKey() + " finished with " + order.getVariablesAsMap());
      return order.getVariablesAsMap();
    }
  }
}
