package io.tern.benchmark.soak;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.worker.JobClient;
import io.camunda.client.api.worker.JobWorker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The soak's workers, as Zeebe's benchmark workers: {@code count} job workers of one job type, each
 * holding at most {@code capacity} jobs, completing each after {@code completionDelay}, with jobs
 * streamed to them or polled. Completing an instance's last task ends the instance: its execution
 * latency is measured then, from the send time in its variables.
 */
final class Worker implements AutoCloseable {
  private final CamundaClient client;
  private final String jobType;
  private final Settings settings;
  private final String lastTaskId;
  private final ClientStats stats;
  private final Consumer<String> errors;
  private final ScheduledExecutorService delays;
  private final List<JobWorker> workers = new ArrayList<>();
  private final java.util.concurrent.atomic.LongAdder jobsCompleted =
      new java.util.concurrent.atomic.LongAdder();

  /** How the workers take and complete jobs. */
  record Settings(int count, int capacity, Duration completionDelay, boolean polling) {}

  /**
   * @param lastTaskId the task that ends an instance, or null if the starter awaits results
   */
  Worker(
      CamundaClient client,
      String jobType,
      Settings settings,
      String lastTaskId,
      ClientStats stats,
      Consumer<String> errors) {
    this.client = client;
    this.jobType = jobType;
    this.settings = settings;
    this.lastTaskId = lastTaskId;
    this.stats = stats;
    this.errors = errors;
    this.delays =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "soak-worker-delay");
              thread.setDaemon(true);
              return thread;
            });
  }

  void open() {
    for (int i = 0; i < settings.count(); i++) {
      workers.add(
          client
              .newWorker()
              .jobType(jobType)
              .handler(this::handle)
              .maxJobsActive(settings.capacity())
              .fetchVariables(SoakWorkload.SENT_AT)
              .streamEnabled(!settings.polling())
              .open());
    }
  }

  private void handle(JobClient jobs, ActivatedJob job) {
    if (delays.isShutdown()) {
      return; // closing: the job times out and is another worker's
    }
    if (settings.completionDelay().isZero()) {
      complete(jobs, job);
    } else {
      delays.schedule(
          () -> complete(jobs, job), settings.completionDelay().toNanos(), TimeUnit.NANOSECONDS);
    }
  }

  private void complete(JobClient jobs, ActivatedJob job) {
    boolean ends = job.getElementId().equals(lastTaskId);
    Object sentAt = ends ? job.getVariablesAsMap().get(SoakWorkload.SENT_AT) : null;
    jobs.newCompleteCommand(job)
        .send()
        .whenComplete(
            (done, error) -> {
              if (error == null) {
                jobsCompleted.increment();
              }
              if (error != null) {
                errors.accept("job completion failed: " + Starter.rootMessage(error));
                if (ends) {
                  stats.failed();
                }
              } else if (sentAt instanceof Number sentAtMs) {
                stats.completed(System.currentTimeMillis() - sentAtMs.longValue());
              }
            });
  }

  /** Jobs completed so far (of every task, not only the last). */
  long jobsCompleted() {
    return jobsCompleted.sum();
  }

  @Override
  public void close() {
    workers.forEach(JobWorker::close);
    delays.shutdownNow();
  }
}
