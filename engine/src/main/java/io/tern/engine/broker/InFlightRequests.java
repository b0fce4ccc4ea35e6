package io.tern.engine.broker;

import com.netflix.concurrency.limits.Limiter;
import io.tern.engine.command.PartitionCommands.Answer;
import io.tern.engine.protocol.Intent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client commands this broker wrote and waits to answer, each under a request id that is its
 * own: the request stream is this broker's ({@code nodeId + 1}), and ids start at a random point in
 * each run of the broker. A leader processes the commands its predecessor wrote and left
 * unprocessed, and answers them under the ids they were written with; those must not match a
 * request of another broker, or of this broker before a restart, or a client would get another
 * command's answer.
 *
 * <p>Each command holds its partition's backpressure slot from its write until it is processed, not
 * until it is answered: a create that awaits its instance's end, or a leader's answer delayed by
 * anything after processing, does not count against the partition's intake.
 */
final class InFlightRequests {
  /** The ids of one run of a broker start below this, so they never wrap. */
  private static final long MAX_FIRST_REQUEST_ID = 1L << 62;

  private final int streamId;
  private final AtomicLong nextRequestId;
  private final Map<Long, InFlight> pending = new ConcurrentHashMap<>();

  InFlightRequests(int nodeId) {
    this(nodeId, ThreadLocalRandom.current().nextLong(MAX_FIRST_REQUEST_ID));
  }

  InFlightRequests(int nodeId, long firstRequestId) {
    if (nodeId < 0 || firstRequestId < 0 || firstRequestId >= MAX_FIRST_REQUEST_ID) {
      throw new IllegalArgumentException(
          "node id " + nodeId + " and first request id " + firstRequestId + " out of range");
    }
    this.streamId = nodeId + 1;
    this.nextRequestId = new AtomicLong(firstRequestId);
  }

  /** The request stream this broker writes its clients' commands under. */
  int streamId() {
    return streamId;
  }

  /**
   * A new request holding {@code slot}. Its answer completes on the command's answer, or
   * exceptionally (a timeout, a write that failed); either way the request is forgotten and its
   * slot released if processing has not released it already: with success on an answer, as dropped
   * on a timeout (no answer in time is the overload signal), ignored otherwise.
   */
  InFlight register(Limiter.Listener slot, int partitionId, Intent intent) {
    InFlight request = new InFlight(nextRequestId.getAndIncrement(), slot, partitionId, intent);
    pending.put(request.requestId, request);
    request.answer.whenComplete(
        (answered, error) -> {
          pending.remove(request.requestId);
          if (error == null) {
            request.release(Limiter.Listener::onSuccess);
          } else if (error instanceof TimeoutException) {
            request.release(Limiter.Listener::onDropped);
          } else {
            request.release(Limiter.Listener::onIgnore);
          }
        });
    return request;
  }

  /**
   * The command of that request was processed, writing first a record of {@code key}: its slot is
   * free, its answer may follow later.
   */
  void processed(int requestStreamId, long requestId, long key) {
    if (requestStreamId != streamId) {
      return;
    }
    InFlight request = pending.get(requestId);
    if (request != null) {
      request.processedKey = key;
      request.processed = true;
      request.release(Limiter.Listener::onSuccess);
    }
  }

  /** The committed answer to that request, if it is one of ours and still waited for. */
  void respond(int requestStreamId, long requestId, LoggedRecord record) {
    if (requestStreamId != streamId) {
      return;
    }
    InFlight request = pending.remove(requestId);
    if (request == null) {
      return; // timed out meanwhile
    }
    byte[] value = new byte[record.value().capacity()];
    record.value().getBytes(0, value);
    RejectionType rejection = record.rejectionType();
    request.answer.complete(
        new Answer(
            record.intentCode(),
            rejection,
            rejection == RejectionType.NONE ? "" : record.rejectionReason(),
            record.key(),
            value));
  }

  /** Requests waiting for their answer. */
  int size() {
    return pending.size();
  }

  /** One client command written to a partition and waiting for its answer. */
  static final class InFlight {
    final long requestId;
    final int partitionId;
    final Intent intent;
    final CompletableFuture<Answer> answer = new CompletableFuture<>();
    private final Limiter.Listener slot;
    private final AtomicBoolean released = new AtomicBoolean();

    /** Set once processed: then the key of the first record written (a created instance's). */
    volatile boolean processed;

    volatile long processedKey = -1;

    private InFlight(long requestId, Limiter.Listener slot, int partitionId, Intent intent) {
      this.requestId = requestId;
      this.slot = slot;
      this.partitionId = partitionId;
      this.intent = intent;
    }

    private void release(java.util.function.Consumer<Limiter.Listener> outcome) {
      if (released.compareAndSet(false, true)) {
        outcome.accept(slot);
      }
    }
  }
}
