package io.tern.benchmark.soak;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ClientStatusException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.tern.benchmark.load.Deployments;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The soak's starter, as Zeebe's benchmark starter: instances of one workload at a fixed rate
 * (creates, or start messages), on schedule whatever the answers. Answers are counted in {@link
 * ClientStats}: accepted, refused by backpressure, failed. Sends still unanswered are bounded, so a
 * cluster that stops answering cannot fill the client's memory: past the bound, an instance due is
 * counted as sent and failed, not sent.
 */
final class Starter implements AutoCloseable {
  /** Creates awaiting a result wait this long at most (the gateway's own limit may be lower). */
  static final Duration RESULT_TIMEOUT = Duration.ofMinutes(1);

  private final CamundaClient client;
  private final SoakWorkload workload;
  private final double rate;
  private final ClientStats stats;
  private final Consumer<String> errors;
  private final AtomicLong unanswered = new AtomicLong();
  private final long maxUnanswered;
  private final Thread thread;
  private volatile boolean running = true;
  private long sequence;

  Starter(
      CamundaClient client,
      SoakWorkload workload,
      double rate,
      ClientStats stats,
      Consumer<String> errors) {
    this.client = client;
    this.workload = workload;
    this.rate = rate;
    this.stats = stats;
    this.errors = errors;
    this.maxUnanswered = Math.max(1_000, (long) (rate * 60));
    this.thread = new Thread(this::run, "soak-starter");
    this.thread.setDaemon(true);
  }

  /**
   * Deploys the workload's process with tasks of {@code jobType}, and waits until every partition
   * has it: instances are then created by latest version, which is this deployment's.
   */
  void deploy(String jobType) {
    Deployments.deployEverywhere(client, workload.processId(), workload.bpmn().apply(jobType));
  }

  void start() {
    thread.start();
  }

  private void run() {
    long periodNs = (long) (1e9 / rate);
    long startNs = System.nanoTime();
    for (long i = 0; running; i++) {
      long waitNs = startNs + i * periodNs - System.nanoTime();
      if (waitNs > 0) {
        LockSupport.parkNanos(waitNs);
      }
      if (running) {
        send();
      }
    }
  }

  private void send() {
    stats.sent();
    if (unanswered.get() >= maxUnanswered) {
      stats.failed();
      errors.accept(maxUnanswered + " sends unanswered: the starter skips instances");
      return;
    }
    unanswered.incrementAndGet();
    long sentAtMs = System.currentTimeMillis();
    String variables = workload.variables(sentAtMs);
    CompletionStage<?> answer;
    if (workload.startMessage() != null) {
      answer =
          client
              .newPublishMessageCommand()
              .messageName(workload.startMessage())
              .correlationKey(Long.toString(sequence++))
              .variables(variables)
              .send();
    } else if (workload.lastTaskId() == null) {
      answer =
          client
              .newCreateInstanceCommand()
              .bpmnProcessId(workload.processId())
              .latestVersion()
              .variables(variables)
              .withResult()
              .requestTimeout(RESULT_TIMEOUT)
              .send()
              .thenApply(
                  result -> {
                    stats.completed(System.currentTimeMillis() - sentAtMs);
                    return result;
                  });
    } else {
      answer =
          client
              .newCreateInstanceCommand()
              .bpmnProcessId(workload.processId())
              .latestVersion()
              .variables(variables)
              .send();
    }
    answer.whenComplete(
        (done, error) -> {
          unanswered.decrementAndGet();
          if (error == null) {
            stats.started();
          } else if (isBackpressure(error)) {
            stats.rejected();
          } else {
            stats.failed();
            errors.accept("start failed: " + rootMessage(error));
          }
        });
  }

  static boolean isBackpressure(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof ClientStatusException status) {
        return status.getStatusCode() == Status.Code.RESOURCE_EXHAUSTED;
      }
      if (cause instanceof StatusRuntimeException status) {
        return status.getStatus().getCode() == Status.Code.RESOURCE_EXHAUSTED;
      }
    }
    return false;
  }

  static String rootMessage(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName() + ": " + root.getMessage();
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join(5_000);
  }
}
