package io.tern.engine.broker;

import com.netflix.concurrency.limits.Limiter;
import io.tern.engine.cluster.ClusterPartitions;
import io.tern.engine.command.PartitionCommands;
import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.partition.DiskSpaceGuard;
import io.tern.engine.partition.EnginePartition;
import io.tern.engine.processor.CommandResponseSink;
import io.tern.engine.protocol.Intent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordValue;
import io.tern.engine.workflow.Partitions;
import io.tern.raft.RaftRole;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The partitions held by this broker: commands from the embedded gateway and the command API are
 * written to those led here and answered once committed (matched by request id); {@link
 * ClusterPartitions} sends the rest to the brokers that lead them.
 */
final class LocalPartitions
    implements PartitionCommands, Partitions, CommandResponseSink, ClusterPartitions.Local {
  private final AtomicReferenceArray<EnginePartition> partitions;
  private final AtomicReferenceArray<CommandLimiter> limiters;
  private final InFlightRequests inFlight;

  /** Times the requests out, each with what is known of why (see TimeoutExplanation). */
  private final ScheduledExecutorService timeouts =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "request-timeouts");
            thread.setDaemon(true);
            return thread;
          });

  LocalPartitions(int nodeId, int partitionsCount) {
    this.inFlight = new InFlightRequests(nodeId);
    this.partitions = new AtomicReferenceArray<>(partitionsCount);
    this.limiters = new AtomicReferenceArray<>(partitionsCount);
  }

  void add(EnginePartition partition, CommandLimiter limiter) {
    limiters.set(partition.partitionId() - 1, limiter);
    partitions.set(partition.partitionId() - 1, partition);
  }

  /** Forgets a replica this broker dropped: its commands go to the leader elsewhere from now on. */
  void remove(int partitionId) {
    partitions.set(partitionId - 1, null);
  }

  @Override
  public int partitionsCount() {
    return partitions.length();
  }

  @Override
  public int count() {
    return partitions.length();
  }

  @Override
  public CompletableFuture<Answer> request(
      int partitionId, Intent intent, long key, RecordValue value, long timeoutMs) {
    EnginePartition partition = leading(partitionId);
    if (partition == null) {
      return CompletableFuture.failedFuture(
          new NotWrittenException(
              "partition " + partitionId + " has no leader on this broker right now", false));
    }
    CommandLimiter limiter = limiters.get(partitionId - 1);
    Optional<Limiter.Listener> slot = limiter.acquire(intent);
    if (slot.isEmpty()) {
      return CompletableFuture.failedFuture(
          new NotWrittenException(
              "partition "
                  + partitionId
                  + " is at its limit of "
                  + limiter.limit()
                  + " commands in flight (backpressure); try again shortly",
              true));
    }
    InFlightRequests.InFlight request = inFlight.register(slot.get(), partitionId, intent);
    CompletableFuture<Answer> answer = request.answer;
    try {
      partition.intake().write(inFlight.streamId(), request.requestId, intent, key, value);
    } catch (LogStreamWriter.NotWritableException e) {
      answer.completeExceptionally(
          new NotWrittenException(
              "partition " + partitionId + ": " + e.getMessage(),
              e.getMessage().startsWith(DiskSpaceGuard.REFUSAL_PREFIX)));
    } catch (RuntimeException e) {
      answer.completeExceptionally(e); // releases the request id and the backpressure slot
    }
    if (!answer.isDone()) {
      ScheduledFuture<?> timeout =
          timeouts.schedule(() -> expire(request), timeoutMs, TimeUnit.MILLISECONDS);
      answer.whenComplete((answered, error) -> timeout.cancel(false));
    }
    return answer;
  }

  /** No answer in time: fails the request, saying what is known of why. */
  private void expire(InFlightRequests.InFlight request) {
    if (request.answer.isDone()) {
      return;
    }
    EnginePartition partition = partitions.get(request.partitionId - 1);
    TimeoutExplanation.of(partition, request)
        .whenComplete(
            (why, error) ->
                request.answer.completeExceptionally(
                    new TimeoutException(
                        why != null
                            ? why
                            : "partition " + request.partitionId + " did not answer")));
  }

  /** From the partitions' processors, once an answer is committed. */
  @Override
  public void respond(int requestStreamId, long requestId, LoggedRecord record) {
    inFlight.respond(requestStreamId, requestId, record);
  }

  /** From the partitions' processors, once a client command is processed. */
  @Override
  public void processed(int requestStreamId, long requestId, long key) {
    inFlight.processed(requestStreamId, requestId, key);
  }

  /** Engine to engine: best effort, the sender retries until acknowledged. */
  @Override
  public void send(int partitionId, Intent intent, long key, RecordValue value) {
    EnginePartition partition = leading(partitionId);
    if (partition == null) {
      return;
    }
    try {
      partition.intake().write(-1, -1, intent, key, value);
    } catch (LogStreamWriter.NotWritableException e) {
      // dropped: sent again after the sender's retry interval
    }
  }

  @Override
  public boolean leads(int partitionId) {
    return leading(partitionId) != null;
  }

  private EnginePartition leading(int partitionId) {
    if (partitionId < 1 || partitionId > partitions.length()) {
      return null;
    }
    EnginePartition partition = partitions.get(partitionId - 1);
    return partition != null && partition.raft().role() == RaftRole.LEADER ? partition : null;
  }
}
