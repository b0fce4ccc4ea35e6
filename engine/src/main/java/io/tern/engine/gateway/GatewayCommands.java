package io.tern.engine.gateway;

import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.tern.engine.command.PartitionCommands;
import io.tern.engine.command.PartitionCommands.Answer;
import io.tern.engine.protocol.Intent;
import io.tern.engine.record.Keys;
import io.tern.engine.record.RecordValue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Turns one gRPC request into one command on a partition and answers the call with what the
 * partition answered: the response built from an accepted answer, or the gRPC error of a rejection,
 * a failure or a timeout. Shared by the gateway's request handlers, so that every request waits,
 * times out and fails the same way.
 */
final class GatewayCommands {
  /** How long before a client's deadline a request stops waiting, to answer why in time. */
  private static final long DEADLINE_MARGIN_MS = 500;

  private final PartitionCommands partitions;
  private final GatewayConfig config;

  GatewayCommands(PartitionCommands partitions, GatewayConfig config) {
    this.partitions = partitions;
    this.config = config;
  }

  /** How many partitions the cluster has. */
  int partitionsCount() {
    return partitions.partitionsCount();
  }

  /** A command about an existing entity goes to the partition its key was made on. */
  <T> void byKey(
      String what,
      long key,
      Intent intent,
      RecordValue value,
      StreamObserver<T> observer,
      Function<Answer, T> onAccepted) {
    int partition = key > 0 ? Keys.partitionOf(key) : 0;
    if (partition < 1 || partition > partitions.partitionsCount()) {
      observer.onError(
          Status.NOT_FOUND
              .withDescription(
                  what
                      + ": "
                      + key
                      + " is not a key of this cluster (no partition "
                      + partition
                      + " among "
                      + partitions.partitionsCount()
                      + ")")
              .asRuntimeException());
      return;
    }
    unary(what, partition, intent, key, value, observer, onAccepted);
  }

  <T> void unary(
      String what,
      int partition,
      Intent intent,
      long key,
      RecordValue value,
      StreamObserver<T> observer,
      Function<Answer, T> onAccepted) {
    send(
        what,
        partition,
        intent,
        key,
        value,
        config.requestTimeout().toMillis(),
        observer,
        onAccepted);
  }

  <T> void send(
      String what,
      int partition,
      Intent intent,
      long key,
      RecordValue value,
      long timeoutMs,
      StreamObserver<T> observer,
      Function<Answer, T> onAccepted) {
    // The partition's answer, or its explanation of a timeout, must reach the client before the
    // client's own deadline cuts the call.
    Deadline deadline = Context.current().getDeadline();
    long waitMs =
        deadline == null
            ? timeoutMs
            : Math.min(
                timeoutMs,
                Math.max(1, deadline.timeRemaining(TimeUnit.MILLISECONDS) - DEADLINE_MARGIN_MS));
    CompletableFuture<Answer> answer;
    try {
      answer = partitions.request(partition, intent, key, value, waitMs);
    } catch (RuntimeException e) {
      observer.onError(GrpcErrors.failed(what, e));
      return;
    }
    answer
        .orTimeout(waitMs + PartitionCommands.TIMEOUT_GRACE_MS, TimeUnit.MILLISECONDS)
        .whenComplete(
            (answered, error) -> {
              if (error != null) {
                observer.onError(GrpcErrors.failed(what, error));
              } else if (!answered.accepted()) {
                observer.onError(GrpcErrors.rejected(what, answered));
              } else {
                T response;
                try {
                  response = onAccepted.apply(answered);
                } catch (RuntimeException e) {
                  observer.onError(GrpcErrors.failed(what, e));
                  return;
                }
                observer.onNext(response);
                observer.onCompleted();
              }
            });
  }

  /** Reads the value of an accepted answer into {@code into}. */
  static <V extends io.tern.engine.workflow.value.WorkflowValue> V read(V into, Answer answer) {
    into.readFrom(new UnsafeBuffer(answer.value()));
    return into;
  }
}
