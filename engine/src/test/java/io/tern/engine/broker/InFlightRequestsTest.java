package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.netflix.concurrency.limits.Limiter;
import io.tern.engine.command.PartitionCommands.Answer;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatchBuilder;
import io.tern.engine.record.RecordValue;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Which answers reach which request, and when a request's backpressure slot is freed. */
class InFlightRequestsTest {
  /** A slot that records how it was released. */
  private static final class Slot implements Limiter.Listener {
    final List<String> outcomes = new ArrayList<>();

    @Override
    public void onSuccess() {
      outcomes.add("success");
    }

    @Override
    public void onIgnore() {
      outcomes.add("ignore");
    }

    @Override
    public void onDropped() {
      outcomes.add("dropped");
    }
  }

  private static LoggedRecord answer(long key) {
    RecordBatchBuilder batch = new RecordBatchBuilder(1, 4096);
    batch.reset(0);
    batch.append(
        RecordType.EVENT,
        JobIntent.COMPLETED,
        key,
        RecordBatchBuilder.NO_POSITION,
        -1,
        RecordBatchBuilder.NO_REQUEST,
        RejectionType.NONE,
        null,
        false,
        RecordValue.of(new UnsafeBuffer(new byte[] {42}), 0, 1));
    return batch.record(0, new LoggedRecord());
  }

  @Test
  void theSlotIsFreedWhenTheCommandIsProcessedAndTheAnswerMayComeLater() {
    InFlightRequests requests = new InFlightRequests(0, 1);
    Slot slot = new Slot();
    InFlightRequests.InFlight request = requests.register(slot, 1, JobIntent.COMPLETE);

    requests.processed(requests.streamId(), request.requestId, -1);
    assertThat(slot.outcomes).containsExactly("success");
    assertThat(request.answer).isNotDone();

    requests.respond(requests.streamId(), request.requestId, answer(7));
    Answer answered = request.answer.join();
    assertThat(answered.key()).isEqualTo(7);
    assertThat(answered.value()).containsExactly(42);
    assertThat(slot.outcomes).as("released once").containsExactly("success");
    assertThat(requests.size()).isZero();
  }

  @Test
  void aTimeoutBeforeProcessingIsTheOverloadSignalAfterItNothing() {
    InFlightRequests requests = new InFlightRequests(0, 1);
    Slot unprocessed = new Slot();
    requests
        .register(unprocessed, 1, JobIntent.COMPLETE)
        .answer
        .completeExceptionally(new TimeoutException());
    assertThat(unprocessed.outcomes).containsExactly("dropped");

    Slot processed = new Slot();
    InFlightRequests.InFlight awaiting = requests.register(processed, 1, JobIntent.COMPLETE);
    requests.processed(requests.streamId(), awaiting.requestId, -1);
    awaiting.answer.completeExceptionally(new TimeoutException()); // a long instance's result
    assertThat(processed.outcomes).containsExactly("success");

    Slot notWritten = new Slot();
    requests
        .register(notWritten, 1, JobIntent.COMPLETE)
        .answer
        .completeExceptionally(new IllegalStateException());
    assertThat(notWritten.outcomes).containsExactly("ignore");
    assertThat(requests.size()).isZero();
  }

  @Test
  void anotherBrokersRequestWithTheSameIdIsNotOurs() {
    // A new leader processes commands its predecessor wrote: their answers carry the old
    // leader's stream and ids.
    InFlightRequests node0 = new InFlightRequests(0, 1);
    InFlightRequests node1 = new InFlightRequests(1, 1);
    Slot slot = new Slot();
    InFlightRequests.InFlight ours = node1.register(slot, 1, JobIntent.COMPLETE);
    assertThat(node0.streamId()).isNotEqualTo(node1.streamId());

    node1.processed(node0.streamId(), ours.requestId, -1);
    node1.respond(node0.streamId(), ours.requestId, answer(7));

    assertThat(ours.answer).isNotDone();
    assertThat(slot.outcomes).isEmpty();
  }

  @Test
  void aRestartedBrokerDoesNotReuseTheIdsOfItsLastRun() {
    long first = new InFlightRequests(0).register(new Slot(), 1, JobIntent.COMPLETE).requestId;
    long second = new InFlightRequests(0).register(new Slot(), 1, JobIntent.COMPLETE).requestId;
    // Random starting points in [0, 2^62): equal only by a 1 in 2^62 chance.
    assertThat(first).isNotEqualTo(second);
  }
}
