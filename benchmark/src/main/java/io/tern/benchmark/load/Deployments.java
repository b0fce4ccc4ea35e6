package io.tern.benchmark.load;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.DeploymentEvent;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.grpc.Status;
import io.tern.engine.record.Keys;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Deploys a benchmark's process so that load starts only once every partition has it. A deployment
 * is answered as soon as partition 1 has it, before it reaches the others (as in Zeebe): until then
 * a create that lands elsewhere fails with NOT_FOUND, or by "latest version" starts an earlier
 * deployment's process. A probe process (start, end) goes in the same deployment and is started
 * until one instance has started on each partition.
 */
public final class Deployments {
  /** The probe's process id. */
  public static final String PROBE_ID = "load-benchmark-probe";

  private static final Duration DISTRIBUTION_TIMEOUT = Duration.ofSeconds(30);

  private Deployments() {}

  /**
   * Deploys {@code bpmn} as {@code processId}, waits until every partition has it, and returns its
   * process definition key.
   *
   * @throws IllegalStateException if some partition lacks it after 30 s
   */
  public static long deployEverywhere(CamundaClient client, String processId, byte[] bpmn) {
    DeploymentEvent deployment =
        client
            .newDeployResourceCommand()
            .addResourceBytes(bpmn, processId + ".bpmn")
            .addResourceBytes(probeXml(), PROBE_ID + ".bpmn")
            .send()
            .join();
    awaitDistribution(client, definitionKey(deployment, PROBE_ID));
    return definitionKey(deployment, processId);
  }

  private static long definitionKey(DeploymentEvent deployment, String processId) {
    return deployment.getProcesses().stream()
        .filter(process -> process.getBpmnProcessId().equals(processId))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("the deployment lacks " + processId))
        .getProcessDefinitionKey();
  }

  /** Starts probe instances until one has started on each partition. */
  private static void awaitDistribution(CamundaClient client, long probeKey) {
    int partitions = client.newTopologyRequest().send().join().getPartitionsCount();
    Set<Integer> have = new HashSet<>();
    long deadline = System.nanoTime() + DISTRIBUTION_TIMEOUT.toNanos();
    while (have.size() < partitions) {
      try {
        long key =
            client
                .newCreateInstanceCommand()
                .processDefinitionKey(probeKey)
                .send()
                .join()
                .getProcessInstanceKey();
        have.add(Keys.partitionOf(key));
      } catch (RuntimeException e) {
        Status.Code status = LoadDriver.statusOf(e);
        if (status != Status.Code.NOT_FOUND && status != Status.Code.RESOURCE_EXHAUSTED) {
          throw e;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "the deployment reached partitions "
                  + have
                  + " of "
                  + partitions
                  + " within "
                  + DISTRIBUTION_TIMEOUT.toSeconds()
                  + " s",
              e);
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
      }
    }
  }

  private static byte[] probeXml() {
    return Bpmn.convertToString(
            Bpmn.createExecutableProcess(PROBE_ID).startEvent().endEvent().done())
        .getBytes(StandardCharsets.UTF_8);
  }
}
