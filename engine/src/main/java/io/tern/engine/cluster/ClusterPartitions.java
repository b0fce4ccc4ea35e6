package io.tern.engine.cluster;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.tern.engine.cluster.BrokerMessages.Answered;
import io.tern.engine.cluster.BrokerMessages.Execute;
import io.tern.engine.command.PartitionCommands;
import io.tern.engine.command.PartitionCommands.NotWrittenException;
import io.tern.engine.command.PartitionCommands.OutcomeUnknownException;
import io.tern.engine.protocol.Intent;
import io.tern.engine.record.RecordValue;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.Partitions;
import java.net.ConnectException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The partitions of a cluster as a gateway or an engine reaches them: a command goes to the
 * partition's leader, in this process if it leads here, else over the {@link BrokerApi} to the
 * broker that does. While a partition has no known leader, or its leader says it no longer leads,
 * the command is tried again for up to {@link #LEADER_WAIT_MS}; it is never tried again when it may
 * have been written (a broken connection mid-call), so that nothing runs twice.
 */
public final class ClusterPartitions implements PartitionCommands, Partitions {
  /** How long a command waits for its partition to have a leader it can reach. */
  static final long LEADER_WAIT_MS = 5_000;

  private static final long RETRY_MIN_MS = 10;
  private static final long RETRY_MAX_MS = 200;

  /** Engine-to-engine commands are sent again by their sender; this only bounds a stuck call. */
  private static final long SEND_TIMEOUT_MS = 5_000;

  /** The leader "node" of a command written to a partition this process leads. */
  private static final int LOCAL = -1;

  /** Set by a broker on an UNAVAILABLE answer: the command was not written, try it again. */
  static final Metadata.Key<String> NOT_WRITTEN =
      Metadata.Key.of("tern-not-written", Metadata.ASCII_STRING_MARSHALLER);

  /** The partitions this process hosts, if it is a broker. */
  public interface Local {
    boolean leads(int partitionId);

    CompletableFuture<Answer> request(
        int partitionId, Intent intent, long key, RecordValue value, long timeoutMs);

    void send(int partitionId, Intent intent, long key, RecordValue value);

    /** A standalone gateway hosts none. */
    Local NONE =
        new Local() {
          @Override
          public boolean leads(int partitionId) {
            return false;
          }

          @Override
          public CompletableFuture<Answer> request(
              int partitionId, Intent intent, long key, RecordValue value, long timeoutMs) {
            throw new IllegalStateException("no local partitions");
          }

          @Override
          public void send(int partitionId, Intent intent, long key, RecordValue value) {
            throw new IllegalStateException("no local partitions");
          }
        };
  }

  private final Local local;
  private final ClusterClient cluster;

  public ClusterPartitions(Local local, ClusterClient cluster) {
    this.local = local;
    this.cluster = cluster;
  }

  @Override
  public int partitionsCount() {
    return cluster.partitionsCount();
  }

  @Override
  public int count() {
    return cluster.partitionsCount();
  }

  @Override
  public CompletableFuture<Answer> request(
      int partitionId, Intent intent, long key, RecordValue value, long timeoutMs) {
    long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    if (local.leads(partitionId)) {
      // The common case, and the only one of a single broker: the local partition's own future,
      // so a caller's timeout releases its request slot directly. A refusal before writing comes
      // back already failed; only then are the retries below needed.
      CompletableFuture<Answer> answer =
          requestLocally(partitionId, intent, key, value, deadlineNs);
      if (!answer.isCompletedExceptionally() || !notWritten(failureOf(answer))) {
        return answer;
      }
    }
    CompletableFuture<Answer> result = new CompletableFuture<>();
    Attempt attempt =
        new Attempt(
            partitionId,
            intent,
            key,
            value,
            result,
            System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LEADER_WAIT_MS),
            deadlineNs);
    attempt.run();
    return result;
  }

  @Override
  public void send(int partitionId, Intent intent, long key, RecordValue value) {
    if (local.leads(partitionId)) {
      local.send(partitionId, intent, key, value);
      return;
    }
    int leader = cluster.leaderOf(partitionId);
    if (leader < 0) {
      return; // dropped: the sender tries again
    }
    cluster.call(
        leader,
        BrokerApi.EXECUTE,
        new Execute(
                partitionId, intent.valueType().code(), intent.code(), key, false, bytesOf(value))
            .encode(),
        SEND_TIMEOUT_MS);
  }

  private CompletableFuture<Answer> requestLocally(
      int partitionId, Intent intent, long key, RecordValue value, long deadlineNs) {
    try {
      return local.request(partitionId, intent, key, value, remainingMs(deadlineNs));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Milliseconds left until {@code deadlineNs}, at least 1. */
  private static long remainingMs(long deadlineNs) {
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime()));
  }

  /** The cause a failed future holds (it is done). */
  private static Throwable failureOf(CompletableFuture<?> failed) {
    try {
      failed.join();
      throw new IllegalStateException("not failed");
    } catch (CompletionException e) {
      return e.getCause() == null ? e : e.getCause();
    } catch (java.util.concurrent.CancellationException e) {
      return e;
    }
  }

  private static byte[] bytesOf(RecordValue value) {
    byte[] bytes = new byte[value.length()];
    value.write(new UnsafeBuffer(bytes), 0);
    return bytes;
  }

  /** One command on its way, tried again while its partition has no reachable leader. */
  private final class Attempt implements Runnable {
    private final int partitionId;
    private final Intent intent;
    private final long key;
    private final RecordValue value;
    private final CompletableFuture<Answer> result;
    private final long giveUpNanos;
    private final long deadlineNs;
    private byte[] encoded;
    private long retryMs = RETRY_MIN_MS;

    Attempt(
        int partitionId,
        Intent intent,
        long key,
        RecordValue value,
        CompletableFuture<Answer> result,
        long giveUpNanos,
        long deadlineNs) {
      this.partitionId = partitionId;
      this.intent = intent;
      this.key = key;
      this.value = value;
      this.result = result;
      this.giveUpNanos = giveUpNanos;
      this.deadlineNs = deadlineNs;
    }

    @Override
    public void run() {
      if (result.isDone()) {
        return; // the caller gave up
      }
      if (local.leads(partitionId)) {
        CompletableFuture<Answer> answer =
            requestLocally(partitionId, intent, key, value, deadlineNs);
        answer.whenComplete((answered, error) -> done(answered, error, LOCAL));
        result.whenComplete(
            (done, error) -> {
              if (error != null) {
                answer.completeExceptionally(error); // releases the request's slot at once
              }
            });
        return;
      }
      int leader = cluster.leaderOf(partitionId);
      if (leader < 0) {
        retryOrFail("partition " + partitionId + " has no known leader");
        return;
      }
      if (encoded == null) {
        encoded =
            new Execute(
                    partitionId,
                    intent.valueType().code(),
                    intent.code(),
                    key,
                    true,
                    bytesOf(value))
                .encode();
      }
      // The leader's broker times out first and says why (see PartitionCommands.request).
      CompletableFuture<byte[]> answer =
          cluster.call(
              leader,
              BrokerApi.EXECUTE,
              encoded,
              remainingMs(deadlineNs) + PartitionCommands.TIMEOUT_GRACE_MS);
      result.whenComplete(
          (done, error) -> {
            if (error != null) {
              answer.completeExceptionally(error); // cancels the call
            }
          });
      answer.whenComplete(
          (bytes, error) -> {
            if (error != null) {
              done(null, error, leader);
              return;
            }
            Answered answered;
            try {
              answered = Answered.decode(bytes);
            } catch (IllegalArgumentException e) {
              result.completeExceptionally(e);
              return;
            }
            result.complete(
                new Answer(
                    answered.intent(),
                    RejectionType.get(answered.rejection()),
                    answered.reason(),
                    answered.key(),
                    answered.value()));
          });
    }

    private void done(Answer answer, Throwable error, int leader) {
      if (error == null) {
        result.complete(answer);
        return;
      }
      Throwable cause =
          error instanceof CompletionException && error.getCause() != null
              ? error.getCause()
              : error;
      if (notWritten(cause)) {
        retryOrFail(cause.getMessage());
      } else {
        result.completeExceptionally(translate(partitionId, leader, cause));
      }
    }

    private void retryOrFail(String why) {
      if (result.isDone()) {
        return;
      }
      if (System.nanoTime() - giveUpNanos >= 0) {
        result.completeExceptionally(
            new NotWrittenException(
                why + " (waited " + LEADER_WAIT_MS + " ms for a leader)", false));
        return;
      }
      long delayMs = retryMs;
      retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
      CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS).execute(this);
    }
  }

  /** Whether a failure means the command was certainly not written anywhere. */
  private static boolean notWritten(Throwable error) {
    if (error instanceof NotWrittenException notWritten) {
      return !notWritten.exhausted(); // an exhausted partition is answered at once, not waited on
    }
    if (error instanceof StatusRuntimeException status
        && status.getStatus().getCode() == Status.Code.UNAVAILABLE) {
      Metadata trailers = status.getTrailers();
      return (trailers != null && trailers.containsKey(NOT_WRITTEN))
          || status.getCause() instanceof ConnectException;
    }
    return false;
  }

  /**
   * A failure of a call to the leader that is not "not written", as the gateway answers it. An
   * exhausted partition and a timeout keep their meaning; a broker's own "outcome unknown" too.
   * Anything else happened after the command left (the connection broke, the call was cut): it may
   * or may not have been written, and must not read as "could not be written", or a client would
   * send it again.
   */
  private Throwable translate(int partitionId, int leader, Throwable error) {
    if (error instanceof StatusRuntimeException status) {
      Status.Code code = status.getStatus().getCode();
      String description = status.getStatus().getDescription();
      if (code == Status.Code.RESOURCE_EXHAUSTED) {
        return new NotWrittenException(description, true);
      }
      if (code == Status.Code.DEADLINE_EXCEEDED) {
        return new TimeoutException(description);
      }
      if (code == Status.Code.ABORTED) {
        return new OutcomeUnknownException(description);
      }
      return new OutcomeUnknownException(
          "the call to "
              + leaderOf(partitionId, leader)
              + " broke after the command was sent ("
              + code
              + (description == null ? "" : ": " + description)
              + "); it may have been written and may take effect");
    }
    if (error instanceof NotWrittenException || error instanceof TimeoutException) {
      return error;
    }
    return new OutcomeUnknownException(
        "the call to "
            + leaderOf(partitionId, leader)
            + " failed after the command was sent ("
            + error
            + "); it may have been written and may take effect");
  }

  private static String leaderOf(int partitionId, int leader) {
    return leader == LOCAL
        ? "partition " + partitionId + "'s leader on this broker"
        : "partition " + partitionId + "'s leader (node " + leader + ")";
  }
}
