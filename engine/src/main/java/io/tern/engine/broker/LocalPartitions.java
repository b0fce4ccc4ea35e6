package io.tern.engine.broker;

import com.netflix.concurrency.limits.Limiter;
import io.tern.engine.cluster.ClusterPartitions;
import io.tern.engine.gateway.PartitionCommands;
import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.partition.DiskSpaceGuard;
import io.tern.engine.partition.EnginePartition;
import io.tern.engine.processor.CommandResponseSink;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordValue;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.Partitions;
import io.tern.raft.RaftRole;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The partitions held by this broker: commands from the embedded gateway and the command API are
 * written to those led here and answered once committed (matched by request id); {@link
 * ClusterPartitions} sends the rest to the brokers that lead them.
 */
final class LocalPartitions
    implements PartitionCommands, Partitions, CommandResponseSink, ClusterPartitions.Local {
  /** The request stream of the embedded gateway's commands. */
  static final int GATEWAY_STREAM = 1;

  private final AtomicReferenceArray<EnginePartition> partitions;
  private final AtomicReferenceArray<CommandLimiter> limiters;
  private final Map<Long, CompletableFuture<Answer>> pending = new ConcurrentHashMap<>();
  private final AtomicLong nextRequestId = new AtomicLong(1);

  LocalPartitions(int partitionsCount) {
    this.partitions = new AtomicReferenceArray<>(partitionsCount);
    this.limiters = new AtomicReferenceArray<>(partitionsCount);
  }

  void add(EnginePartition partition, CommandLimiter limiter) {
    limiters.set(partition.partitionId() - 1, limiter);
    partitions.set(partition.partitionId() - 1, partition);
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
      int partitionId, int valueType, int intent, long key, RecordValue value) {
    EnginePartition partition = leading(partitionId);
    if (partition == null) {
      return CompletableFuture.failedFuture(
          new PartitionUnavailableException(
              "partition " + partitionId + " has no leader on this broker right now", false));
    }
    CommandLimiter limiter = limiters.get(partitionId - 1);
    Optional<Limiter.Listener> slot = limiter.acquire(valueType, intent);
    if (slot.isEmpty()) {
      return CompletableFuture.failedFuture(
          new PartitionUnavailableException(
              "partition "
                  + partitionId
                  + " is at its limit of "
                  + limiter.limit()
                  + " commands in flight (backpressure); try again shortly",
              true));
    }
    long requestId = nextRequestId.getAndIncrement();
    CompletableFuture<Answer> answer = new CompletableFuture<>();
    pending.put(requestId, answer);
    answer.whenComplete(
        (answered, error) -> {
          pending.remove(requestId); // a request that timed out at the gateway is forgotten
          if (error == null) {
            slot.get().onSuccess();
          } else if (error instanceof TimeoutException) {
            slot.get().onDropped(); // no answer in time: the partition is overloaded
          } else {
            slot.get().onIgnore();
          }
        });
    try {
      partition.intake().write(GATEWAY_STREAM, requestId, valueType, intent, key, value);
    } catch (LogStreamWriter.NotWritableException e) {
      answer.completeExceptionally(
          new PartitionUnavailableException(
              "partition " + partitionId + ": " + e.getMessage(),
              e.getMessage().startsWith(DiskSpaceGuard.REFUSAL_PREFIX)));
    } catch (RuntimeException e) {
      answer.completeExceptionally(e); // releases the request id and the backpressure slot
    }
    return answer;
  }

  /** From the partitions' processors, once an answer is committed. */
  @Override
  public void respond(int requestStreamId, long requestId, LoggedRecord record) {
    if (requestStreamId != GATEWAY_STREAM) {
      return;
    }
    CompletableFuture<Answer> answer = pending.remove(requestId);
    if (answer == null) {
      return; // timed out meanwhile
    }
    byte[] value = new byte[record.value().capacity()];
    record.value().getBytes(0, value);
    RejectionType rejection = record.rejectionType();
    answer.complete(
        new Answer(
            record.intent(),
            rejection,
            rejection == RejectionType.NONE ? "" : record.rejectionReason(),
            record.key(),
            value));
  }

  /** Engine to engine: best effort, the sender retries until acknowledged. */
  @Override
  public void send(int partitionId, int valueType, int intent, long key, RecordValue value) {
    EnginePartition partition = leading(partitionId);
    if (partition == null) {
      return;
    }
    try {
      partition.intake().write(-1, -1, valueType, intent, key, value);
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
