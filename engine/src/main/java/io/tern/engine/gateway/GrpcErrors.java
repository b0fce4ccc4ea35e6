package io.tern.engine.gateway;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.tern.engine.command.PartitionCommands.Answer;
import io.tern.engine.command.PartitionCommands.NotWrittenException;
import io.tern.engine.command.PartitionCommands.OutcomeUnknownException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

/** gRPC status codes for rejections and failures, with messages a user can act on. */
final class GrpcErrors {
  private GrpcErrors() {}

  /** The status for a rejected command ({@code what} names the request, e.g. "CompleteJob"). */
  static StatusRuntimeException rejected(String what, Answer answer) {
    Status status =
        switch (answer.rejection()) {
          case INVALID_ARGUMENT, EXCEEDED_BATCH_RECORD_SIZE -> Status.INVALID_ARGUMENT;
          case NOT_FOUND -> Status.NOT_FOUND;
          case ALREADY_EXISTS -> Status.ALREADY_EXISTS;
          case INVALID_STATE -> Status.FAILED_PRECONDITION;
          default -> Status.INTERNAL;
        };
    return status
        .withDescription(what + " rejected (" + answer.rejection() + "): " + answer.reason())
        .asRuntimeException();
  }

  /** The status for a request that failed without an answer. */
  static StatusRuntimeException failed(String what, Throwable error) {
    Throwable cause =
        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof StatusRuntimeException status) {
      return status;
    }
    if (cause instanceof NotWrittenException unavailable) {
      return (unavailable.exhausted() ? Status.RESOURCE_EXHAUSTED : Status.UNAVAILABLE)
          .withDescription(what + " could not be written: " + unavailable.getMessage())
          .asRuntimeException();
    }
    if (cause instanceof OutcomeUnknownException unknown) {
      // ABORTED: the official clients' retry policies resend on UNAVAILABLE and
      // RESOURCE_EXHAUSTED (and, for idempotent calls, DEADLINE_EXCEEDED), never on ABORTED.
      return Status.ABORTED
          .withDescription(
              what
                  + " may or may not have been written: "
                  + unknown.getMessage()
                  + ". Check its effect before sending it again")
          .asRuntimeException();
    }
    if (cause instanceof TimeoutException timeout) {
      return Status.DEADLINE_EXCEEDED
          .withDescription(
              what
                  + " got no answer in time"
                  + (timeout.getMessage() == null ? "" : " (" + timeout.getMessage() + ")")
                  + "; it may still take effect")
          .asRuntimeException();
    }
    return Status.INTERNAL
        .withDescription(what + " failed: " + cause)
        .withCause(cause)
        .asRuntimeException();
  }
}
