package io.tern.engine.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.tern.engine.command.PartitionCommands.NotWrittenException;
import io.tern.engine.command.PartitionCommands.OutcomeUnknownException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The status each outcome gets. The official clients' retry policies resend creates and the like on
 * UNAVAILABLE and RESOURCE_EXHAUSTED only: those must mean "not written".
 */
class GrpcErrorsTest {
  @Test
  void notWrittenIsRetryable() {
    StatusRuntimeException unavailable =
        GrpcErrors.failed("CreateProcessInstance", new NotWrittenException("no leader", false));
    assertThat(unavailable.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(unavailable).hasMessageContaining("could not be written: no leader");

    StatusRuntimeException exhausted =
        GrpcErrors.failed(
            "CreateProcessInstance",
            new CompletionException(new NotWrittenException("at its limit", true)));
    assertThat(exhausted.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
  }

  @Test
  void anUnknownOutcomeIsAbortedNeverUnavailable() {
    StatusRuntimeException status =
        GrpcErrors.failed(
            "CreateProcessInstance",
            new OutcomeUnknownException("the call to partition 2's leader (node 1) broke"));
    assertThat(status.getStatus().getCode()).isEqualTo(Status.Code.ABORTED);
    assertThat(status)
        .hasMessageContaining("CreateProcessInstance may or may not have been written")
        .hasMessageContaining("node 1")
        .hasMessageContaining("before sending it again")
        .hasMessageNotContaining("could not be written");
  }

  @Test
  void noAnswerInTimeSaysWhatIsKnownAndNoMore() {
    StatusRuntimeException status =
        GrpcErrors.failed("CompleteJob", new TimeoutException("no answer from the partition"));
    assertThat(status.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    assertThat(status)
        .hasMessageContaining("no answer from the partition")
        .hasMessageContaining("may still take effect")
        .hasMessageNotContaining("electing");
  }
}
