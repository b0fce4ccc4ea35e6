package io.tern.engine.gateway;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivateJobsRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivateJobsResponse;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.tern.engine.command.PartitionCommands;
import io.tern.engine.protocol.JobBatchIntent;
import io.tern.engine.workflow.value.JobBatchValue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * ActivateJobs: asks the partitions in turn (starting one further each time) for up to the
 * requested number of jobs, streaming each partition's jobs back. If none had a job, the request is
 * parked (long polling) until a partition says jobs of its type became available, then asks again,
 * or until the long-polling timeout ends it empty.
 */
final class JobActivation {
  private final PartitionCommands partitions;
  private final GatewayJobStreams jobStreams;
  private final GatewayConfig config;
  private final AtomicInteger firstPartition = new AtomicInteger();
  private final ScheduledExecutorService timeouts =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "gateway-long-polling");
            thread.setDaemon(true);
            return thread;
          });

  JobActivation(PartitionCommands partitions, GatewayJobStreams jobStreams, GatewayConfig config) {
    this.partitions = partitions;
    this.jobStreams = jobStreams;
    this.config = config;
  }

  void activate(
      ActivateJobsRequest request, ServerCallStreamObserver<ActivateJobsResponse> observer) {
    if (RequestTexts.tooLong(observer, "ActivateJobs", "the type", request.getType())
        || RequestTexts.tooLong(observer, "ActivateJobs", "the worker", request.getWorker())) {
      return;
    }
    for (String name : request.getFetchVariableList()) {
      if (RequestTexts.tooLong(observer, "ActivateJobs", "a variable to fetch", name)) {
        return;
      }
    }
    if (request.getType().isBlank()
        || request.getMaxJobsToActivate() < 1
        || request.getTimeout() < 1) {
      observer.onError(
          Status.INVALID_ARGUMENT
              .withDescription(
                  "ActivateJobs needs a type, maxJobsToActivate >= 1 and a timeout >= 1 ms; got"
                      + " type '"
                      + request.getType()
                      + "', "
                      + request.getMaxJobsToActivate()
                      + " and "
                      + request.getTimeout()
                      + " ms")
              .asRuntimeException());
      return;
    }
    new Attempt(request, observer).start();
  }

  void close() {
    timeouts.shutdownNow();
  }

  /** One request, asked again each time it is woken until it got jobs or its time is up. */
  private final class Attempt {
    private final ActivateJobsRequest request;
    private final ServerCallStreamObserver<ActivateJobsResponse> observer;
    private final AtomicBoolean done = new AtomicBoolean();
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean wokenWhileRunning = new AtomicBoolean();
    private final Runnable wakeUp = this::askAgain;

    Attempt(ActivateJobsRequest request, ServerCallStreamObserver<ActivateJobsResponse> observer) {
      this.request = request;
      this.observer = observer;
    }

    void start() {
      boolean longPolling = request.getRequestTimeout() >= 0;
      if (longPolling) {
        long waitMs =
            request.getRequestTimeout() > 0
                ? request.getRequestTimeout()
                : config.longPollingTimeout().toMillis();
        // Parked before asking, so jobs that appear while the partitions are asked are not missed.
        jobStreams.park(request.getType(), wakeUp);
        timeouts.schedule(this::finish, waitMs, TimeUnit.MILLISECONDS);
        observer.setOnCancelHandler(
            () -> {
              done.set(true);
              jobStreams.unpark(request.getType(), wakeUp); // a cancelled request waits no more
            });
      }
      askAll(longPolling);
    }

    private void askAgain() {
      if (done.get()) {
        return;
      }
      if (!running.compareAndSet(false, true)) {
        wokenWhileRunning.set(true);
        return;
      }
      jobStreams.park(request.getType(), wakeUp);
      ask(0, request.getMaxJobsToActivate(), 0, true);
    }

    private void askAll(boolean longPolling) {
      running.set(true);
      ask(0, request.getMaxJobsToActivate(), 0, longPolling);
    }

    /** Asks the {@code asked}-th partition of this round for up to {@code wanted} jobs. */
    private void ask(int asked, int wanted, int found, boolean longPolling) {
      int count = partitions.partitionsCount();
      if (asked == count || wanted == 0 || done.get()) {
        endOfRound(found, longPolling);
        return;
      }
      int partition = 1 + Math.floorMod(firstPartition.getAndIncrement(), count);
      JobBatchValue batch = new JobBatchValue();
      batch.type = request.getType();
      batch.worker = request.getWorker();
      batch.timeoutMs = request.getTimeout();
      batch.maxJobsToActivate = wanted;
      batch.fetchVariables.addAll(request.getFetchVariableList());
      CompletableFuture<PartitionCommands.Answer> answer;
      try {
        answer =
            partitions.request(
                partition, JobBatchIntent.ACTIVATE, -1, batch, config.requestTimeout().toMillis());
      } catch (RuntimeException e) {
        answer = CompletableFuture.failedFuture(e);
      }
      answer
          .orTimeout(
              config.requestTimeout().toMillis() + PartitionCommands.TIMEOUT_GRACE_MS,
              TimeUnit.MILLISECONDS)
          .whenComplete(
              (answered, error) -> {
                int got = 0;
                if (error == null && answered.accepted()) {
                  got = send(GatewayCommands.read(new JobBatchValue(), answered));
                } else if (error == null) {
                  fail(GrpcErrors.rejected("ActivateJobs", answered));
                  return;
                }
                // A partition without a leader now is skipped: the others may have jobs.
                ask(asked + 1, wanted - got, found + got, longPolling);
              });
    }

    /** Streams one partition's activated jobs; returns how many. */
    private int send(JobBatchValue activated) {
      if (activated.jobs.isEmpty() || done.get()) {
        return 0;
      }
      ActivateJobsResponse.Builder response = ActivateJobsResponse.newBuilder();
      for (int i = 0; i < activated.jobs.size(); i++) {
        response.addJobs(Conversions.activatedJob(activated.jobKeys.get(i), activated.jobs.get(i)));
      }
      synchronized (this) {
        observer.onNext(response.build());
      }
      return activated.jobs.size();
    }

    private void endOfRound(int found, boolean longPolling) {
      running.set(false);
      if (found > 0 || !longPolling) {
        finish();
      } else if (wokenWhileRunning.getAndSet(false)) {
        askAgain();
      }
    }

    private void finish() {
      if (done.compareAndSet(false, true)) {
        jobStreams.unpark(request.getType(), wakeUp);
        synchronized (this) {
          observer.onCompleted();
        }
      }
    }

    private void fail(RuntimeException error) {
      if (done.compareAndSet(false, true)) {
        jobStreams.unpark(request.getType(), wakeUp);
        synchronized (this) {
          observer.onError(error);
        }
      }
    }
  }
}
